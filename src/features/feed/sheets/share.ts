import type { Video } from '../../../contract';
import { shareLink } from '../../../ui/share';

/** The link a share carries: the start screen of this very video (spec §2: /video/{id}/{slug}). */
export const shareUrl = (video: Video) => `${window.location.origin}/video/${video.id}/${video.slug}`;

export const shareVideo = (video: Video) => shareLink(video.title, shareUrl(video));

/** Said by the toast once 'Select video' has done its work. */
export const SELECTED_MESSAGE = 'Video selected: your feed now starts here';
