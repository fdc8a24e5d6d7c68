import type { Params } from 'react-router';
import { discoverGroups } from '../../contract/discover';
import type { Video } from '../../contract/video';

/** Where a feed starts: the first page's URL, its title, and an optional list handed over by the screen before. */
export interface FeedSource {
  /** Identifies the list; a different key starts a fresh feed. */
  key: string;
  firstUrl: string;
  /** Shown in the header of every feed but home. */
  title?: string;
  /** Rating mode (videos-rating feed). */
  rating?: boolean;
}

/** Navigation state a grid passes when it opens the feed at a tapped thumbnail (spec §2: list, index, page). */
export interface FeedStart {
  list: Video[];
  index: number;
  /** links.next of the grid's last loaded page, so the feed continues where the grid stopped. */
  next?: string | null;
}

export type FeedRoute =
  | 'home'
  | 'tag'
  | 'tag-video'
  | 'category'
  | 'webcam-site'
  | 'video'
  | 'profile'
  | 'rating';

const enc = encodeURIComponent;

/** The home feed's query: the viewer's gender preference (when valid) and selected tags. */
export function homeQuery(gender: string, tags: { id: number }[]): string {
  const params = new URLSearchParams();
  if (/^[mt](,[mt])?$/.test(gender)) params.set('gender', gender);
  if (tags.length > 0) params.set('tags', tags.map((t) => t.id).join(','));
  return params.toString();
}

export const titleCase = (text = '') => text.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** Maps a feed route of spec §2 to its list call of spec §7. */
export function feedSource(route: FeedRoute, params: Params, query = ''): FeedSource {
  const q = query ? `?${query}` : '';
  switch (route) {
    case 'home':
      return { key: `home${q}`, firstUrl: `/v1/videos${q}` };
    case 'tag':
      return {
        key: `tag:${params.id}`,
        firstUrl: `/v1/tags/${enc(params.id ?? '')}/videos${q}`,
        title: 'Tag',
      };
    case 'tag-video': {
      const id = params.id ?? params.videoId ?? '';
      return {
        key: `tag:${params.slug}:${id}`,
        firstUrl: `/v1/tags/${enc(params.slug ?? '')}/videos/${enc(id)}${q}`,
        title: `#${params.slug ?? ''}`,
      };
    }
    case 'category':
      return {
        key: `category:${params.category}`,
        firstUrl: `/v1/discover/category/${enc(params.category ?? '')}/videos${q}`,
        // Spec §2: titled from a category-name lookup; the discover carousels are categories too.
        title: discoverGroups.find((g) => g.slug === params.category)?.title ?? titleCase(params.category),
      };
    case 'webcam-site':
      return {
        key: `site:${params.site}`,
        firstUrl: `/v1/discover/webcam-site/${enc(params.site ?? '')}/videos${q}`,
        // Until the site's name is known (FeedScreen looks it up), its slug reads as a name.
        title: `Best of ${titleCase(params.site)}`,
      };
    case 'video':
      return { key: `video:${params.id}`, firstUrl: `/v1/videos/start/${enc(params.id ?? '')}${q}` };
    case 'profile':
      return { key: `profile:${params.slug}`, firstUrl: `/v1/users/${enc(params.slug ?? '')}/videos${q}` };
    case 'rating':
      return {
        key: 'rating',
        firstUrl: `/v1/tags/video-rating/unrated${q}`,
        title: 'Unrated videos',
        rating: true,
      };
  }
}

/** `#name` of tag `id` as the videos of its feed carry it, if any does. */
export function tagTitle(videos: Video[] | undefined, id: string | undefined): string | undefined {
  for (const video of videos ?? []) {
    const tag = video.tags.find((t) => String(t.id) === id);
    if (tag) return `#${tag.name}`;
  }
  return undefined;
}
