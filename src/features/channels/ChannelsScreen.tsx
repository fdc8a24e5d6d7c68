import { usePages } from '../../api/usePages';
import { CHANNELS_PATH, fetchChannelPage } from '../../api/users';
import { ChannelCard } from '../../ui/ChannelCard';
import { TvIcon } from '../../ui/icons';
import { PageEnd } from '../../ui/PageEnd';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed, StateMessage } from '../../ui/StateMessage';
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
        <LoadFailed title="Couldn't load channels" error={pages.error} onRetry={pages.retry} />
      )}
      {pages.status === 'ready' &&
        (pages.items.length === 0 ? (
          <StateMessage
            title="No channels yet"
            text="Channels show up here as soon as they join."
            icon={<TvIcon />}
          />
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
