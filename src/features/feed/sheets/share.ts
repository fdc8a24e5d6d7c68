import type { Video } from '../../../contract';

/** The link a share carries: the start screen of this very video (spec §2: /video/{id}/{slug}). */
export const shareUrl = (video: Video) => `${window.location.origin}/video/${video.id}/${video.slug}`;

/** Web Share where the platform has it (the phone's own share sheet), else a copy of the link. */
export async function shareVideo(video: Video): Promise<string | null> {
  const url = shareUrl(video);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: video.title, url });
      return null;
    } catch (error) {
      // The viewer closed the share sheet: nothing to say.
      if (error instanceof DOMException && error.name === 'AbortError') return null;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'Link copied';
  } catch {
    return `Copy this link: ${url}`;
  }
}

/** Said by the toast once 'Select video' has done its work. */
export const SELECTED_MESSAGE = 'Video selected: your feed now starts here';
