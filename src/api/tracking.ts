// Every counted interaction goes through the outbox (src/offline/outbox.ts): queued on the device first,
// sent with an Idempotency-Key, replayed until the server has it. The outbox is a layer above this one
// (src/README.md), so src/offline/sync.ts hands its queue in on import, as it hands the outbox its sender.
import { readAuth } from '../state/auth';

/** The counted interactions, each posted to /v1/{kind}. */
type TrackedKind = 'video-like' | 'video-view' | 'event' | 'link-click' | 'profile-view';
type Queue = (kind: TrackedKind, body: Record<string, unknown>, collapseKey?: string) => Promise<string>;

let queue: Queue | undefined;

export function setTrackingQueue(next: Queue) {
  queue = next;
}

// Spec §7 lists user_id in these bodies for users (the token decides on the server). It also marks the
// entry as a user's: the service worker, which has no token, leaves such entries to the page.
const post = (kind: TrackedKind, body: Record<string, unknown>, collapseKey?: string) => {
  const auth = readAuth();
  // Always set in the app: src/main.tsx imports src/offline/sync.ts, which sets it, before anything renders.
  return (queue as Queue)(kind, auth ? { ...body, user_id: auth.userId } : body, collapseKey);
};

export const trackVideoLike = (videoId: number, liked: boolean) =>
  post('video-like', { video_id: videoId, type: liked ? 'add' : 'remove' }, `like:${videoId}`);

export const trackVideoView = (videoId: number) => post('video-view', { video_id: videoId });

/** Spec §9 event ids: 1 bottom cams, 3 menu, 5 other, 7 floating Live Cams button. */
export const trackEvent = (eventId: 1 | 3 | 5 | 7) => post('event', { event_id: eventId });

export const trackLinkClick = (linkId: number, location = 'profile', isLive = false) =>
  post('link-click', { link_id: linkId, link_location: location, is_live: isLive });

export const trackProfileView = (profileId: number) => post('profile-view', { profile_id: profileId });
