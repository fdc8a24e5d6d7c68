import { useAtomValue } from 'jotai';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { postFollow } from '../api/users';
import type { UserType } from '../contract';
import { authAtom } from '../state/auth';
import './ui.css';

/** A follow state as the button changes it; `id` says whose, so a late answer never lands on someone else. */
export interface FollowChange {
  id: number;
  isFollowing: boolean;
  totalFollowers?: number;
}

/**
 * Follow / Following (spec §4). Flips at once and settles on the server's answer (the new follower count);
 * a failure flips back without a message (spec §8). Guests are sent to sign up instead, and there is no button
 * on one's own profile nor on a plain user's (spec §6).
 */
export function FollowButton({
  creator,
  onChange,
  guest,
  className = '',
  action = false,
}: {
  creator: { id: number; isFollowing: boolean; type?: UserType };
  onChange: (change: FollowChange) => void;
  /** Defaults to the signed-in state. */
  guest?: boolean;
  className?: string;
  /**
   * Name the action rather than the state (spec §4: 'Unfollow' in the following list): Follow / Unfollow,
   * a plain button, where the profile's Follow / Following is a toggle (aria-pressed).
   */
  action?: boolean;
}) {
  const auth = useAtomValue(authAtom);
  const navigate = useNavigate();
  // One request at a time: a second tap before the answer could otherwise be overtaken by the first.
  const pending = useRef(false);
  const isGuest = guest ?? auth === null;
  if (creator.type === 'user' || (auth !== null && auth.userId === creator.id)) return null;

  const toggle = () => {
    if (isGuest) {
      // Following is for viewers' accounts: the sign-up starts past its type step (spec §2).
      navigate('/register/user');
      return;
    }
    if (pending.current) return;
    pending.current = true;
    const { id } = creator;
    const follow = !creator.isFollowing;
    onChange({ id, isFollowing: follow });
    postFollow(id, follow)
      .then(
        (res) => onChange({ id, ...res }),
        () => onChange({ id, isFollowing: !follow }),
      )
      .finally(() => {
        pending.current = false;
      });
  };

  return (
    <button
      type="button"
      className={`btn follow-button ${creator.isFollowing ? 'btn-ghost is-following' : 'btn-primary'} ${className}`}
      aria-pressed={action ? undefined : creator.isFollowing}
      onClick={toggle}
    >
      {creator.isFollowing ? (action ? 'Unfollow' : 'Following') : 'Follow'}
    </button>
  );
}
