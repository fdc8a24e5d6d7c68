import { useParams } from 'react-router';
import { ApiError } from '../../api/http';
import { useVideoPages } from '../../api/useVideoPages';
import { useKeptScroll } from '../../state/historyEntry';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed, StateMessage } from '../../ui/StateMessage';
import { VideoGrid } from '../../ui/VideoGrid';
import './tags.css';

/** Spec §9: the tag grid loads 30 a page. */
export const TAG_PAGE_SIZE = 30;

/** /tag/{id} (spec §2): the tag's videos as a grid; a tap opens the tag feed at that video. */
export function TagScreen() {
  const { id = '' } = useParams();
  const pages = useVideoPages(`/v1/tags/${encodeURIComponent(id)}/videos?per_page=${TAG_PAGE_SIZE}`, {
    keep: true,
  });
  // Back from the tag feed, the grid is where the viewer left it.
  useKeptScroll(pages.status === 'ready');
  // There is no tag lookup call: every video of the list carries the tag, name included.
  const tag = pages.videos.flatMap((v) => v.tags).find((t) => String(t.id) === id || t.slug === id);
  const feed = `/tag/${encodeURIComponent(id)}/feed`;

  return (
    <div className="tag-screen">
      <ScreenHeader title={tag ? `#${tag.name}` : pages.status === 'loading' ? undefined : 'Tag'} />
      {pages.status === 'loading' && <Spinner fill />}
      {pages.status === 'error' &&
        (pages.error instanceof ApiError && pages.error.status === 404 ? (
          <StateMessage title="Tag not found" text="There is no such tag." alert />
        ) : (
          <LoadFailed title="Couldn't load videos" error={pages.error} onRetry={pages.retry} />
        ))}
      {pages.status === 'ready' &&
        (pages.videos.length === 0 ? (
          <StateMessage
            title="No videos yet"
            text="Clips with this tag show up here as soon as creators post them."
          />
        ) : (
          <div className="tag-body">
            <VideoGrid videos={pages.videos} to={() => feed} paging={pages} label="Videos" />
          </div>
        ))}
    </div>
  );
}
