import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/http';
import { fetchFollowingModels } from '../../api/profile';
import { useRequest } from '../../api/useRequest';
import { messages } from '../../contract';
import { authAtom, expireSession } from '../../state/auth';
import { Avatar } from '../../ui/Avatar';
import { FollowButton, type FollowChange } from '../../ui/FollowButton';
import { CompassIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed, StateMessage } from '../../ui/StateMessage';
import './following.css';

type Model = Awaited<ReturnType<typeof fetchFollowingModels>>[number];
type Row = Model & { isFollowing: boolean };

/**
 * /account/following (spec §2): the creators this account follows, live first, each with a toggle. An
 * unfollow keeps its row (now offering Follow), so a slip of the finger is undone where it happened; the
 * list is asked for afresh on the next visit.
 */
export function FollowingScreen() {
  const auth = useAtomValue(authAtom);
  const following = useRequest(`following:${auth?.userId ?? ''}`, fetchFollowingModels);
  const error = following.status === 'error' ? following.error : null;
  useEffect(() => {
    if (error instanceof ApiError && error.status === 401) expireSession();
  }, [error]);

  return (
    <>
      <ScreenHeader title="Following" />
      {following.status === 'loading' ? (
        <Spinner fill />
      ) : following.status === 'error' ? (
        <LoadFailed
          title="Couldn't load who you follow"
          error={following.error}
          onRetry={following.retry}
          className="screen-body"
        />
      ) : following.data.length === 0 ? (
        <StateMessage
          title={messages.profile.notFollowing}
          text="Follow creators from their profile or the feed, and they gather here."
          icon={<CompassIcon />}
          className="screen-body"
        >
          <Link to="/discover" className="btn btn-primary">
            Discover creators
          </Link>
        </StateMessage>
      ) : (
        <FollowingList models={following.data} />
      )}
    </>
  );
}

function FollowingList({ models }: { models: Model[] }) {
  const [rows, setRows] = useState<Row[]>(() => models.map((m) => ({ ...m, isFollowing: true })));
  const changed = (change: FollowChange) =>
    setRows((current) =>
      current.map((row) => (row.id === change.id ? { ...row, isFollowing: change.isFollowing } : row)),
    );
  const count = rows.filter((row) => row.isFollowing).length;
  return (
    <div className="screen-body following-body">
      <p className="screen-lead" aria-live="polite">
        {count === 1 ? '1 creator' : `${count} creators`}
      </p>
      <ul className="following-list" aria-label="Creators you follow">
        {rows.map((row) => (
          <li key={row.id} className="following-row">
            <Link to={`/${encodeURIComponent(row.slug)}`} className="following-who">
              <span className="following-avatar">
                <Avatar src={row.avatar} name={row.name} size={52} live={row.isLive === 1} />
                {row.isLive === 1 && <span className="live-badge following-live">LIVE</span>}
              </span>
              <span className="following-text">
                <span className="following-name">{row.name}</span>
                <span className="following-slug">@{row.slug}</span>
              </span>
            </Link>
            <FollowButton
              creator={row}
              onChange={changed}
              guest={false}
              action
              className="following-toggle"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
