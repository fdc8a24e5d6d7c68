import { useParams } from 'react-router';
import { ApiError } from '../../api/http';
import { useVideoPages } from '../../api/useVideoPages';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { VideoGrid } from '../../ui/VideoGrid';
import './tags.css';

/** Spec §9: the tag grid loads 30 a page. */
export const TAG_PAGE_SIZE = 30;

/** /tag/{id} (spec §2): the tag's videos as a grid; a tap opens the tag feed at that video. */
export function TagScreen() {
  const { id = '' } = useParams();
  const pages = useVideoPages(`/v1/tags/${encodeURIComponent(id)}/videos?per_page=${TAG_PAGE_SIZE}`);
  // There is no tag lookup call: every video of the list carries the tag, name included.
  const tag = pages.videos.flatMap((v) => v.tags).find((t) => String(t.id) === id || t.slug === id);
  const feed = `/tag/${encodeURIComponent(id)}/feed`;

  return (
    <div className="tag-screen">
      <ScreenHeader title={tag ? `#${tag.name}` : pages.status === 'loading' ? undefined : 'Tag'} />
      {pages.status === 'loading' && <Spinner fill />}
      {pages.status === 'error' &&
        (pages.error instanceof ApiError && pages.error.status === 404 ? (
          <div className="tag-message" role="alert">
            <h2 className="tag-message-title">Tag not found</h2>
            <p className="tag-message-text">There is no such tag.</p>
          </div>
        ) : (
          <div className="tag-message" role="alert">
            <h2 className="tag-message-title">Couldn't load videos</h2>
            <p className="tag-message-text">Check your connection and try again.</p>
            <button type="button" className="btn btn-primary" onClick={pages.retry}>
              Retry
            </button>
          </div>
        ))}
      {pages.status === 'ready' &&
        (pages.videos.length === 0 ? (
          <div className="tag-message">
            <h2 className="tag-message-title">No videos yet</h2>
            <p className="tag-message-text">
              Clips with this tag show up here as soon as creators post them.
            </p>
          </div>
        ) : (
          <div className="tag-body">
            <VideoGrid videos={pages.videos} to={() => feed} paging={pages} label="Videos" />
          </div>
        ))}
    </div>
  );
}
