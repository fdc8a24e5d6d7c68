import { useAtomValue } from 'jotai';
import { startTransition, useEffect, useId, useState } from 'react';
import { discoverGender, fetchDiscover, takeArrivedDiscover } from '../../api/discover';
import { errorText } from '../../api/errors';
import { useRequest } from '../../api/useRequest';
// Not the contract's index: that would bring every schema of the app (auth, profile, verification: 4 KB
// gzipped) into Discover's first render for one list.
import { type DiscoverResponse, discoverGroups, type SearchResponse } from '../../contract/discover';
import { useEntryState, useKeptScroll } from '../../state/historyEntry';
import { preferencesCategoryAtom } from '../../state/preferences';
import { Avatar } from '../../ui/Avatar';
import { Link } from '../../ui/Link';
import { CloseIcon, SearchIcon } from '../../ui/more-icons';
import { Spinner } from '../../ui/Spinner';
import { VideoTile } from '../../ui/VideoTile';
import { Carousel, CreatorRow, Section, SiteRow } from './Sections';
import { useDiscoverSearch } from './useDiscoverSearch';
import './discover.css';

/** /discover (spec §2): search, creators live and new, cam sites, and the four ranked carousels. */
export function DiscoverScreen() {
  const category = useAtomValue(preferencesCategoryAtom);
  const gender = discoverGender(category);
  const [arrived] = useState(() => takeArrivedDiscover(gender));
  const discover = useRequest(`discover:${gender ?? ''}`, (signal) => fetchDiscover(gender, signal), arrived);
  // Back from a feed opened here, the search and the results (or the sections) are where the viewer left them.
  const [text, setText] = useEntryState('discoverSearch', '');
  const search = useDiscoverSearch(text);
  const searchId = useId();
  const searching = search.status !== 'idle';
  useKeptScroll(searching ? search.status !== 'loading' : discover.status === 'success');

  return (
    <div className="discover">
      <header className="discover-head">
        <h1 className="discover-title">Discover</h1>
        <search className="discover-search">
          <label htmlFor={searchId} className="visually-hidden">
            Search
          </label>
          <SearchIcon className="discover-search-icon" />
          <input
            id={searchId}
            type="search"
            placeholder="Search..."
            autoComplete="off"
            enterKeyHint="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          {text && (
            <button
              type="button"
              className="discover-search-clear"
              aria-label="Clear search"
              onClick={() => setText('')}
            >
              <CloseIcon />
            </button>
          )}
        </search>
      </header>

      {searching ? (
        <SearchResults state={search} />
      ) : discover.status === 'loading' ? (
        <DiscoverSkeleton />
      ) : discover.status === 'error' ? (
        // LoadFailed's title, words and Retry, written out: importing it would add the StateMessage chunk
        // and its stylesheet to the first load of /discover, a first screen (see vite.config.ts).
        <div className="discover-message" role="alert">
          <p className="discover-message-title">Couldn't load Discover</p>
          <p className="discover-message-text">{errorText(discover.error)}</p>
          <button type="button" className="btn btn-primary" onClick={discover.retry}>
            Retry
          </button>
        </div>
      ) : (
        <DiscoverSections data={discover.data} />
      )}
    </div>
  );
}

/** Whether a Discover screen has been shown in this page load (see useFirstScreenfulFirst). */
let shownBefore = false;

/**
 * False on the first render of the page load's first Discover, true a frame later: that first render
 * leaves out the carousels below the first screenful, so the first picture is laid out and painted
 * with half the page's elements (issue 17: Lighthouse's /discover waited on one 170 ms layout-and-paint
 * task of all seven sections at 4x CPU), and the rest mounts right after it, below what is on screen. A
 * later Discover (back from a feed) renders whole at once, so the scroll can go back where the viewer
 * left it (useKeptScroll) in the commit that brings the answer.
 */
function useFirstScreenfulFirst(): boolean {
  const [whole, setWhole] = useState(shownBefore);
  useEffect(() => {
    shownBefore = true;
    if (whole) return;
    let timer = 0;
    // A frame, then a task: the first screenful has painted.
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => startTransition(() => setWhole(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [whole]);
  return whole;
}

function DiscoverSections({ data }: { data: DiscoverResponse }) {
  const whole = useFirstScreenfulFirst();
  const groups = discoverGroups.filter((g) => data.videos[g.key].length > 0);
  // Thumbnails of the first carousel on screen load at once: they are what the first screenful shows.
  const firstGroup = groups[0]?.key;
  return (
    <div className="discover-body">
      {data.liveUsers.length > 0 && (
        <Section title="Live Creators">
          <CreatorRow creators={data.liveUsers} />
        </Section>
      )}
      {data.latestUsers.length > 0 && (
        <Section title="Newest Creators">
          <CreatorRow creators={data.latestUsers} />
        </Section>
      )}
      {data.webcam_sites.length > 0 && (
        <Section title="Cams sites">
          <SiteRow sites={data.webcam_sites} />
        </Section>
      )}
      {groups.map((group, i) =>
        whole || i === 0 ? (
          <Section key={group.key} title={group.title}>
            <Carousel
              videos={data.videos[group.key]}
              feed={`/discover/category/${group.slug}/feed`}
              eager={group.key === firstGroup}
            />
          </Section>
        ) : (
          // Until the rest mounts, its room is kept: a viewer who scrolls at once goes down, not to the end of
          // a short page.
          <div key={group.key} className="discover-section-pending" aria-hidden="true" />
        ),
      )}
    </div>
  );
}

function SearchResults({ state }: { state: ReturnType<typeof useDiscoverSearch> }) {
  if (state.status === 'loading' || state.status === 'idle') {
    return (
      <div className="discover-message">
        <Spinner />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="discover-message" role="alert">
        <p className="discover-message-text">{state.message}</p>
      </div>
    );
  }
  const { users, tags, videos }: SearchResponse = state.data;
  if (users.length + tags.length + videos.length === 0) {
    return (
      <div className="discover-message">
        <p className="discover-message-title">No results found</p>
      </div>
    );
  }
  return (
    <div className="discover-body">
      {users.length > 0 && (
        <Section title="Users">
          <ul className="search-users">
            {users.map((u) => (
              <li key={u.id}>
                <Link to={`/${u.slug}`} className="search-user">
                  <Avatar src={u.avatar} name={u.name} size={44} live={u.isLive === 1} />
                  <span className="search-user-text">
                    <span className="search-user-name">{u.name}</span>
                    <span className="search-user-slug">@{u.slug}</span>
                  </span>
                  {u.isLive === 1 && <span className="live-badge">LIVE</span>}
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {tags.length > 0 && (
        <Section title="Tags">
          <ul className="search-tags">
            {tags.map((tag) => (
              <li key={tag.id}>
                <Link to={`/tag/${tag.id}`} className="search-tag">
                  #{tag.name}
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {videos.length > 0 && (
        <Section title="Videos">
          <ul className="video-grid">
            {videos.map((video, index) => (
              <li key={video.id}>
                <VideoTile
                  video={video}
                  index={index}
                  list={videos}
                  to={`/video/${video.id}/${video.slug}`}
                />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}

function DiscoverSkeleton() {
  return (
    <div className="discover-body" aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading
      </span>
      {[0, 1, 2].map((row) => (
        <div key={row} className="discover-section" aria-hidden="true">
          <div className="skeleton skeleton-title" />
          <div className="discover-row carousel">
            {[0, 1, 2, 3, 4, 5].map((i) => (
              <div key={i} className="skeleton skeleton-tile" />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
