import { type ListOptions, usePages } from './usePages';
import { fetchFeedPage } from './videos';

/**
 * A paged video list (`{ data, links: { next } }`) for a grid: the first page from `firstUrl`, then each
 * links.next as handed out, without duplicates (see usePages).
 */
export function useVideoPages(firstUrl: string, options?: ListOptions) {
  const { items, ...pages } = usePages(firstUrl, fetchFeedPage, options);
  return { ...pages, videos: items };
}
