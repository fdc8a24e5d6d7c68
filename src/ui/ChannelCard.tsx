import type { CSSProperties } from 'react';
import { Avatar } from './Avatar';
import { Link } from './Link';
import './channel-card.css';

/** Only a plain hex colour may tint a card or a ring: the value comes from another user. */
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A creator's colour (spec: channels choose one) if it is a safe hex value, else undefined. */
export const creatorColor = (color: string | null | undefined) =>
  color && HEX_COLOR.test(color) ? color.toLowerCase() : undefined;

export interface ChannelCardData {
  slug: string;
  name: string;
  avatar: string | null;
  cover: string | null;
  description: string | null;
  color: string | null;
  isLive: 0 | 1;
}

/**
 * A channel as /channels shows it (spec §2: cover, avatar, nickname, description, coloured border): the
 * border, the avatar's ring and the cover's glow take the channel's colour. The channel-colour setting
 * previews the same card, so what a channel picks is what viewers see. With `to` it is a link.
 */
export function ChannelCard({
  channel,
  to,
  eager = false,
}: {
  channel: ChannelCardData;
  to?: string;
  eager?: boolean;
}) {
  const color = creatorColor(channel.color);
  const style = color ? ({ '--channel-color': color } as CSSProperties) : undefined;
  const body = (
    <>
      <span className="channel-card-cover">
        {channel.cover && (
          <img
            src={channel.cover}
            alt=""
            width="500"
            height="250"
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
        )}
      </span>
      <span className="channel-card-body">
        <span className="channel-card-avatar">
          <Avatar src={channel.avatar} name={channel.name} size={64} live={channel.isLive === 1} />
          {channel.isLive === 1 && <span className="live-badge channel-card-live">LIVE</span>}
        </span>
        <span className="channel-card-name">{channel.name}</span>
        <span className="channel-card-slug">@{channel.slug}</span>
        {channel.description && <span className="channel-card-description">{channel.description}</span>}
      </span>
    </>
  );
  return to ? (
    <Link to={to} className="channel-card" style={style}>
      {body}
    </Link>
  ) : (
    <div className="channel-card" style={style}>
      {body}
    </div>
  );
}
