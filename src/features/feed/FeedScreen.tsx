import { useAtomValue, useSetAtom } from 'jotai';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { rememberBootRequest, takeBootVideo } from '../../api/boot';
import { homeGenerationAtom } from '../../state/home';
import { preferenceSelectedTagsAtom, preferencesCategoryAtom } from '../../state/preferences';
import { feedOnScreenAtom } from '../../state/skipLink';
import { Link } from '../../ui/Link';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { pageAdFormats, useAdPlacements } from './ads/ads';
import { feedIndexAtom } from './feedAtoms';
import { useIsGuest } from './guest';
import { FeedPlayer } from './player/FeedPlayer';
import { useSiteName } from './siteName';
import { type FeedRoute, type FeedStart, feedSource, homeQuery, tagTitle } from './sources';
import { useFeedList } from './useFeedList';
import { SIDEBARS_QUERY, useMediaQuery, WIDE_QUERY } from './useMediaQuery';
import './feed.css';

// Only screens of 1200 px and wider show the sidebars: phones never download them.
const LeftSidebar = lazy(() => import('./sidebar/LeftSidebar').then((m) => ({ default: m.LeftSidebar })));
const RightSidebar = lazy(() => import('./sidebar/RightSidebar').then((m) => ({ default: m.RightSidebar })));
// The page's own ad formats come with the operator's ads.json, after the first video: their code too.
const AdFormats = lazy(() => import('./ads/AdFormats').then((m) => ({ default: m.AdFormats })));

/** `/`: the home feed, started afresh each time the home tab is tapped while on it. */
export function HomeScreen() {
  return <FeedScreen route="home" generation={useAtomValue(homeGenerationAtom)} />;
}

/** Every feed route of spec §2: the route picks the list, the player is the same. */
export function FeedScreen({ route, generation = 0 }: { route: FeedRoute; generation?: number }) {
  const params = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const tags = useAtomValue(preferenceSelectedTagsAtom);
  const gender = useAtomValue(preferencesCategoryAtom);
  // Home follows the viewer's gender preference (default 'm') and selected tags; other feeds take their
  // query from the URL, and category and cam-site feeds the preferred gender too (spec §7: gender={list}).
  const query = route === 'home' ? homeQuery(gender, tags) : feedQuery(route, search, gender);
  const source = feedSource(route, params, query);
  const start = (location.state as { feed?: FeedStart } | null)?.feed;
  const { list, loadMore, retry } = useFeedList(source, start, generation);
  // The next visit's boot script asks for this first page before the app's code has loaded (src/api/boot.ts).
  useEffect(() => {
    if (route === 'home') void rememberBootRequest('feed', source.firstUrl);
  }, [route, source.firstUrl]);
  // No first slot to take over index.html's video (an error, an empty list): it stops, and leaves the
  // screen if it plays on it.
  const noSlot = list?.status === 'error' || (list?.status === 'ready' && list.videos.length === 0);
  useEffect(() => {
    if (noSlot) takeBootVideo(null);
  }, [noSlot]);
  const wide = useMediaQuery(WIDE_QUERY);
  const sidebars = useMediaQuery(SIDEBARS_QUERY);
  const ads = useAdPlacements(wide);
  const pageAds = pageAdFormats(ads);
  const index = useAtomValue(feedIndexAtom);
  const guest = useIsGuest();
  const onScreen = list?.videos[index];
  const creatorId = onScreen?.userId;
  // The page's skip link says "Skip to video" while a feed is on screen.
  const setFeedOnScreen = useSetAtom(feedOnScreenAtom);
  useEffect(() => {
    setFeedOnScreen(true);
    return () => setFeedOnScreen(false);
  }, [setFeedOnScreen]);
  // Spec §1: wide screens put the feed between the recommendations and the creator's card. The feed comes
  // first in the document, so Tab reaches the video's controls before the 20 thumbnails beside it; the grid
  // places the columns (feed.css).
  const frame = (body: ReactNode) =>
    sidebars ? (
      <div className="feed-layout">
        <div className="feed-center">{body}</div>
        <Suspense fallback={<aside className="sidebar sidebar-left" />}>
          <LeftSidebar ads={ads} />
        </Suspense>
        {creatorId !== undefined ? (
          <Suspense fallback={<aside className="sidebar sidebar-right" />}>
            <RightSidebar creatorId={creatorId} guest={guest} videoId={onScreen?.id} />
          </Suspense>
        ) : (
          <aside className="sidebar sidebar-right" />
        )}
      </div>
    ) : (
      body
    );

  const siteName = useSiteName(
    route === 'webcam-site' ? params.site : undefined,
    (location.state as { siteName?: string } | null)?.siteName,
    gender,
  );
  // A tag feed opened by id learns the tag's name from its own videos.
  const title =
    route === 'tag'
      ? (tagTitle(list?.videos, params.id) ?? source.title)
      : siteName
        ? `Best of ${siteName}`
        : source.title;
  const header = title !== undefined && (
    <div className="feed-header">
      <ScreenHeader title={title} />
    </div>
  );

  if (!list || list.status === 'loading') {
    return frame(
      <div className="feed-stage">
        {header}
        {/* The feed is there from the start, busy, so assistive tech announces it once its videos arrive. */}
        <div className="feed-slots" role="feed" aria-busy="true" aria-label="Videos" />
        <Spinner fill />
      </div>,
    );
  }
  if (list.status === 'error') {
    // A list that does not exist (a deleted video, a tag that never was) is a dead end: the viewer gets a way
    // on, and Retry only where asking again can help (no network, a busy server).
    const missing = list.retryable === false;
    return frame(
      <div className="feed-stage feed-message" role="alert">
        {header}
        <h1 className="feed-message-title">
          {list.error === 'Video not found'
            ? 'Video not found'
            : missing
              ? 'Nothing to play here'
              : "Couldn't load videos"}
        </h1>
        <p className="feed-message-text">
          {list.error === 'Video not found'
            ? 'It may have been removed by its creator, or the link is wrong.'
            : missing
              ? "This list doesn't exist or is no longer available."
              : list.error}
        </p>
        <div className="feed-message-actions">
          {!missing && (
            <button type="button" className="btn btn-primary" onClick={retry}>
              Retry
            </button>
          )}
          <Link to="/" className={missing ? 'btn btn-primary' : 'btn btn-ghost'}>
            Go to the home feed
          </Link>
        </div>
      </div>,
    );
  }
  if (list.videos.length === 0) {
    return frame(
      <div className="feed-stage feed-message">
        {header}
        <h1 className="feed-message-title">No videos yet</h1>
        <p className="feed-message-text">New clips show up here as soon as creators post them.</p>
      </div>,
    );
  }
  return frame(
    <>
      {header}
      <FeedPlayer
        feedKey={source.key}
        offline={list.offline}
        videos={list.videos}
        hasMore={list.next !== null}
        onNearEnd={loadMore}
        ads={ads}
        rating={source.rating}
      />
      {pageAds && (
        <Suspense fallback={null}>
          <AdFormats formats={pageAds} />
        </Suspense>
      )}
    </>,
  );
}

function feedQuery(route: FeedRoute, search: URLSearchParams, gender: string): string {
  const params = new URLSearchParams(search);
  if ((route === 'category' || route === 'webcam-site') && !params.has('gender') && GENDER.test(gender))
    params.set('gender', gender);
  return params.toString();
}

const GENDER = /^[mt](,[mt])?$/;
