// Every counted interaction goes through the outbox (src/offline/outbox.ts): queued on the device first,
// sent with an Idempotency-Key, replayed until the server has it.
import { enqueue } from '../offline/outbox';

export const trackVideoLike = (videoId: number, liked: boolean) =>
  enqueue('video-like', { video_id: videoId, type: liked ? 'add' : 'remove' }, `like:${videoId}`);

export const trackVideoView = (videoId: number) => enqueue('video-view', { video_id: videoId });

/** Spec §9 event ids: 1 bottom cams, 3 menu, 5 other, 7 floating Live Cams button. */
export const trackEvent = (eventId: 1 | 3 | 5 | 7) => enqueue('event', { event_id: eventId });

export const trackLinkClick = (linkId: number, location = 'profile', isLive = false) =>
  enqueue('link-click', { link_id: linkId, link_location: location, is_live: isLive });

export const trackProfileView = (profileId: number) => enqueue('profile-view', { profile_id: profileId });
