import { afterEach, describe, expect, it, vi } from 'vitest';

// The API client's identity and redirect rules, against a scripted network edge.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

const answer = (status: number, body: unknown) =>
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status }));

describe('api client', () => {
  it('sends a 402 on a link call and a 403 on a profile update to /login, and still fails the call', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { updateLinks, updateProfile } = await import('../../src/api/profile');
    answer(402, { message: 'Payment required.' });
    await expect(updateLinks([{ url: 'https://example.com', action: 'add' }])).rejects.toMatchObject({
      status: 402,
    });
    expect(assign).toHaveBeenLastCalledWith(expect.stringMatching(/^\/login\?next=/));
    answer(403, { message: 'This action is unauthorized.' });
    await expect(updateProfile({ name: 'Luna' })).rejects.toMatchObject({ status: 403 });
    expect(assign).toHaveBeenCalledTimes(2);
  });

  it('leaves other failures, and other calls, where they are', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { updateLinks } = await import('../../src/api/profile');
    const { apiFetch } = await import('../../src/api/http');
    answer(422, { message: 'Invalid link URL', errors: { links: ['Invalid link URL'] } });
    await expect(updateLinks([{ url: 'nope', action: 'add' }])).rejects.toMatchObject({
      status: 422,
      message: 'Invalid link URL',
    });
    answer(403, { message: 'This action is unauthorized.' });
    await expect(apiFetch('/v1/videos/1/delete')).rejects.toMatchObject({ status: 403 });
    expect(assign).not.toHaveBeenCalled();
  });

  it('identifies users by bearer only and guests by guest_id only (spec §6)', async () => {
    const seen: { url: string; auth: string | null; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push({
        url,
        auth: new Headers(init.headers).get('Authorization'),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response('{}', { status: 200 });
    });
    const { apiFetch } = await import('../../src/api/http');
    await apiFetch('/v1/videos?gender=m');
    await apiFetch('/v1/video-view', { method: 'POST', body: { video_id: 3 } });
    localStorage.setItem(
      'shortcams.auth',
      JSON.stringify({ accessToken: 'tok', userId: 5, userType: 'user' }),
    );
    await apiFetch('/v1/video-view', { method: 'POST', body: { video_id: 3 } });
    expect(seen[0]?.url).toMatch(/^\/v1\/videos\?gender=m&guest_id=[0-9a-f-]{36}$/);
    expect(seen[0]?.auth).toBeNull();
    expect(seen[1]?.body).toMatchObject({ video_id: 3, guest_id: expect.any(String) });
    expect(seen[2]?.auth).toBe('Bearer tok');
    expect(seen[2]?.body).toEqual({ video_id: 3 });
  });

  it('hands a discover request started at app start to the screen, once, for the same gender only', async () => {
    const urls: string[] = [];
    const body = {
      liveUsers: [],
      latestUsers: [],
      webcam_sites: [],
      videos: { liked_weekly: [], liked_all_time: [], viewed_weekly: [], viewed_all_time: [] },
    };
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(body), { status: 200 });
    });
    const { discoverGender, fetchDiscover, prefetchDiscover } = await import('../../src/api/discover');
    expect([discoverGender('m,t'), discoverGender('x')]).toEqual(['m,t', undefined]);
    prefetchDiscover('m');
    await fetchDiscover('m');
    expect(urls).toHaveLength(1);
    // Taken over once: a later load (retry, return to the screen) asks again, as does another gender.
    await fetchDiscover('m');
    await fetchDiscover('t');
    expect(urls.map((u) => u.replace(/[?&]guest_id=[^&]+/, ''))).toEqual([
      '/v1/discover?gender=m',
      '/v1/discover?gender=m',
      '/v1/discover?gender=t',
    ]);
  });

  it("hands the home feed's first page started at app start to the feed, and the feed can still cancel it", async () => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls++;
      return new Response(JSON.stringify({ data: [], links: { next: null } }), { status: 200 });
    });
    const { fetchFeedPage, prefetchFeedPage } = await import('../../src/api/videos');
    prefetchFeedPage('/v1/videos?gender=m');
    expect(await fetchFeedPage('/v1/videos?gender=m')).toEqual({ data: [], links: { next: null } });
    expect(calls).toBe(1);
    prefetchFeedPage('/v1/videos?gender=t');
    const controller = new AbortController();
    const taken = fetchFeedPage('/v1/videos?gender=t', controller.signal);
    controller.abort();
    await expect(taken).rejects.toMatchObject({ name: 'AbortError' });
  });
});
