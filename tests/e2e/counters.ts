// A video's counters as the server holds them now. The home feed's pages and shared links (start/{id}) are
// the same for everyone for FEED_CACHE_MS, their counters as old as that; a creator's grid is read afresh.
import { type APIRequestContext, expect } from 'playwright/test';

interface Counted {
  id: number;
  userId: number;
  likeCount: number;
  viewCount: number;
  isLiked: boolean;
}

export async function counters(
  request: APIRequestContext,
  video: { id: number; userId: number },
  guestId?: string,
) {
  for (let page = 1; ; page++) {
    const guest = guestId ? `&guest_id=${guestId}` : '';
    const res = await request.get(`/v1/users/${video.userId}/videos?page=${page}${guest}`);
    expect(res.status()).toBe(200);
    const answer = (await res.json()) as { data: Counted[]; links: { next: string | null } };
    const found = answer.data.find((v) => v.id === video.id);
    if (found) return { likes: found.likeCount, views: found.viewCount, liked: found.isLiked };
    if (!answer.links.next) throw new Error(`video ${video.id} is not in its creator's grid`);
  }
}
