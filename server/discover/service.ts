// GET /v1/discover's answer: one body for every viewer of a gender choice and place, with its ETag, compressed
// once per build.
import { createHash } from 'node:crypto';
import type { DiscoverResponse } from '../../src/contract';
import type { Db } from '../db/client';
import type { VideoRow } from '../db/schema';
import { type Precompressed, precompress } from '../http/compress';
import type { Viewer } from '../http/viewer';
import type { MediaStorage } from '../media/storage';
import { presentCreatorCard, presentVideos } from '../videos/present';
import * as q from './queries';

export const CREATORS = 12;
export const VIDEOS = 10;

export interface DiscoverAnswer {
  body: Precompressed;
  etag: string;
}

/** The page for one gender choice and place, with its ETag: what every such viewer is answered. */
export async function buildDiscover(
  db: Db,
  storage: MediaStorage,
  gender: string | undefined,
  geo: Pick<Viewer, 'country' | 'region'>,
): Promise<DiscoverAnswer> {
  const viewer: Viewer = { user: undefined, guestId: undefined, key: undefined, ...geo };
  const genders = gender ? (gender.split(',') as ('m' | 't')[]) : undefined;

  const [live, latest, likedWeekly, likedAll, viewedWeekly, viewedAll, sites] = await Promise.all([
    q.liveCreators(db, viewer, genders, CREATORS),
    q.latestCreators(db, viewer, genders, CREATORS),
    q.rankedVideos(db, viewer, gender, 'liked_weekly', { limit: VIDEOS }),
    q.rankedVideos(db, viewer, gender, 'liked_all_time', { limit: VIDEOS }),
    q.rankedVideos(db, viewer, gender, 'viewed_weekly', { limit: VIDEOS }),
    q.rankedVideos(db, viewer, gender, 'viewed_all_time', { limit: VIDEOS }),
    q.webcamSites(db),
  ]);
  const card = (u: q.CreatorRow) => presentCreatorCard(storage, u);
  const present = (rows: VideoRow[]) => presentVideos(db, storage, rows);
  const body: DiscoverResponse = {
    liveUsers: live.map(card),
    latestUsers: latest.map(card),
    videos: {
      liked_weekly: await present(likedWeekly),
      liked_all_time: await present(likedAll),
      viewed_weekly: await present(viewedWeekly),
      viewed_all_time: await present(viewedAll),
    },
    webcam_sites: sites.map((s) => ({
      name: s.name,
      slug: s.slug,
      icon: s.icon && /^(https?:)?\//.test(s.icon) ? s.icon : storage.url(s.icon),
    })),
  };
  const json = JSON.stringify(body);
  // Strong validator: the same bytes always give the same tag, on every API node.
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
  // Compressed here, once per build, rather than on each of the thousands of requests it answers.
  return { body: precompress(json), etag };
}
