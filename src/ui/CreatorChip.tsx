import type { CSSProperties } from 'react';
import { Avatar } from './Avatar';
import { Link } from './Link';
import './ui.css';

/** A creator as a round avatar with name and LIVE badge: discover's creator rows, a user's followed models. */
export function CreatorChip({
  creator,
  size,
}: {
  creator: { slug: string; name: string; avatar: string | null; isLive: 0 | 1 };
  size: number;
}) {
  return (
    <Link
      to={`/${encodeURIComponent(creator.slug)}`}
      className="creator-chip"
      style={{ '--chip-avatar': `${size}px` } as CSSProperties}
    >
      <Avatar src={creator.avatar} name={creator.name} size={size} live={creator.isLive === 1} />
      {creator.isLive === 1 && <span className="live-badge creator-chip-live">LIVE</span>}
      <span className="creator-chip-name">{creator.name}</span>
    </Link>
  );
}
