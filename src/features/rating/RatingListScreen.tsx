import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useVideoPages } from '../../api/useVideoPages';
import { type RatingListType, ratingListPath } from '../../api/videoRating';
import { authAtom } from '../../state/auth';
import { SmileIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { NotFound } from '../../ui/NotFound';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed, StateMessage } from '../../ui/StateMessage';
import { VideoGrid } from '../../ui/VideoGrid';
import '../../ui/form/form.css';
import './rating.css';

/** The rating mode feed (spec §2 /videos-rating/feed): a tapped tile opens it at that video. */
export const RATING_FEED_PATH = '/videos-rating/feed';

const tabs: { type: RatingListType; label: string }[] = [
  { type: 'unrated', label: 'Unrated videos' },
  { type: 'rated', label: 'Rated videos' },
];

const isListType = (type: string | undefined): type is RatingListType =>
  type === 'unrated' || type === 'rated';

/**
 * /videos-rating/{unrated|rated} (spec §2 'Video rating'): two tabs whose URL is the list's, a grid of 30 a
 * page (gender fixed to m, spec §9) that loads on as it scrolls, and a tap opens the rating feed there.
 */
export function RatingListScreen() {
  const { type } = useParams();
  if (!isListType(type)) return <NotFound />;
  return <RatingList type={type} />;
}

function RatingList({ type }: { type: RatingListType }) {
  const guest = useAtomValue(authAtom) === null;
  // A new URL is a new list: switching tabs starts again from page 1, at the top (the tab replaces the
  // history entry, so nothing else resets the scroll; left at the end, it would load page 2 at once).
  const pages = useVideoPages(ratingListPath(type));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `type` is the trigger.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [type]);

  return (
    <div className="rating-screen">
      <ScreenHeader title="Rate videos" />
      <nav className="rating-tabs" aria-label="Rating lists">
        <ul className="segmented">
          {tabs.map((tab) => (
            <li key={tab.type} className="rating-tab">
              <Link
                to={`/videos-rating/${tab.type}`}
                replace
                className="segmented-option"
                aria-current={tab.type === type ? 'page' : undefined}
              >
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {pages.status === 'loading' && <Spinner fill />}
      {pages.status === 'error' && (
        <LoadFailed title="Couldn't load videos" error={pages.error} onRetry={pages.retry} />
      )}
      {pages.status === 'ready' &&
        (pages.videos.length === 0 ? (
          <EmptyList type={type} guest={guest} />
        ) : (
          <div className="rating-body">
            <VideoGrid
              videos={pages.videos}
              to={() => RATING_FEED_PATH}
              paging={pages}
              label={type === 'rated' ? 'Rated videos' : 'Unrated videos'}
            />
          </div>
        ))}
    </div>
  );
}

function EmptyList({ type, guest }: { type: RatingListType; guest: boolean }) {
  const [title, text] =
    type === 'unrated'
      ? ['You rated every video', 'New clips show up here as soon as creators post them.']
      : guest
        ? ['Sign in to rate videos', 'Videos you rate collect here, on every device you sign in on.']
        : ['No rated videos yet', 'Rate a few clips and they collect here.'];
  return (
    <StateMessage title={title} text={text} icon={<SmileIcon />}>
      {type === 'rated' &&
        (guest ? (
          <Link to="/login" state={{ from: '/videos-rating/rated' }} className="btn btn-primary">
            Log in
          </Link>
        ) : (
          <Link to={RATING_FEED_PATH} className="btn btn-primary">
            Start rating
          </Link>
        ))}
    </StateMessage>
  );
}
