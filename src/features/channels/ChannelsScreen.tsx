import { errorText } from '../../api/errors';
import { usePages } from '../../api/usePages';
import { CHANNELS_PATH, fetchChannelPage } from '../../api/users';
import { ChannelCard } from '../../ui/ChannelCard';
import { TvIcon } from '../../ui/icons';
import { PageEnd } from '../../ui/PageEnd';
import { Spinner } from '../../ui/Spinner';
import './channels.css';

/**
 * /channels (spec §2): channel cards (cover, avatar, nickname, description, the channel's coloured border),
 * live ones first, each opening the channel's profile; further pages load as the end scrolls into view.
 */
export function ChannelsScreen() {
  const pages = usePages(CHANNELS_PATH, fetchChannelPage);
  return (
    <div className="channels">
      <header className="channels-head">
        <h1 className="channels-title">Channels</h1>
        <p className="channels-lead">Creator channels, each framed in its own colour.</p>
      </header>
      {pages.status === 'loading' && <Spinner fill />}
      {pages.status === 'error' && (
        <div className="channels-message" role="alert">
          <h2 className="channels-message-title">Couldn't load channels</h2>
          <p className="channels-message-text">{errorText(pages.error)}</p>
          <button type="button" className="btn btn-primary" onClick={pages.retry}>
            Retry
          </button>
        </div>
      )}
      {pages.status === 'ready' &&
        (pages.items.length === 0 ? (
          <div className="channels-message">
            <span className="channels-empty-icon" aria-hidden="true">
              <TvIcon />
            </span>
            <h2 className="channels-message-title">No channels yet</h2>
            <p className="channels-message-text">Channels show up here as soon as they join.</p>
          </div>
        ) : (
          <>
            <ul className="channels-grid" aria-label="Channels">
              {pages.items.map((channel, index) => (
                <li key={channel.id}>
                  <ChannelCard
                    channel={channel}
                    to={`/${encodeURIComponent(channel.slug)}`}
                    eager={index < 4}
                  />
                </li>
              ))}
            </ul>
            <PageEnd paging={pages} />
          </>
        ))}
    </div>
  );
}
