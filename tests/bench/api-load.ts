// The API's hot paths under autocannon: the home feed, discover, and the view and like posts a watching
// viewer sends. Shared by the server bench (figures) and `profile.ts` (where the time goes).
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface Scenario {
  name: string;
  /** A request of the scenario, to fetch the body the bare server answers with. */
  sample: { path: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };
  requests: autocannon.Request[];
}

const DEMO_VIEWER = { email: 'sam.viewer@demo.test', password: 'demo-password' };

/**
 * View and like posts come from one signed-in viewer: a guest is limited per address (issue 16: 50 guest
 * ids and 2,000 actions an hour), and a bench from one address would measure the limit, not the server.
 * Likes alternate add and remove over a few videos, so each post really changes a row and a counter.
 */
export async function scenarios(base: string): Promise<Scenario[]> {
  const login = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...DEMO_VIEWER, remember_me: true }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const feed = (await (await fetch(`${base}/v1/videos?per_page=10`)).json()) as { data: { id: number }[] };
  const ids = feed.data.map((v) => v.id);
  if (ids.length < 4) throw new Error(`the feed lists ${ids.length} videos: seed the demo first`);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const json = (body: object) => JSON.stringify(body);
  const likes: autocannon.Request[] = [];
  for (const id of ids.slice(0, 4)) {
    likes.push({
      method: 'POST',
      path: '/v1/video-like',
      headers: auth,
      body: json({ video_id: id, type: 'add' }),
    });
    likes.push({
      method: 'POST',
      path: '/v1/video-like',
      headers: auth,
      body: json({ video_id: id, type: 'remove' }),
    });
  }
  const views = ids.map(
    (id): autocannon.Request => ({
      method: 'POST',
      path: '/v1/video-view',
      headers: auth,
      body: json({ video_id: id }),
    }),
  );
  // As a browser asks: the answer comes compressed, and the compression is part of what is measured.
  const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const get = (path: string): Scenario => ({
    name: path,
    sample: { path, method: 'GET', headers },
    requests: [{ method: 'GET', path, headers }],
  });
  // Page 2 as a session asks for it: page 1's next link, the same for every viewer served that page 1.
  const page1 = (await (await fetch(`${base}/v1/videos?gender=m,t`)).json()) as {
    links: { next: string | null };
  };
  if (!page1.links.next) throw new Error('the home feed has one page: seed the demo first');
  const next = new URL(page1.links.next, base);
  // A shared link: a crowd opens the feed on one of a few videos.
  const starts = ids
    .slice(0, 6)
    .map((id): autocannon.Request => ({ method: 'GET', path: `/v1/videos/start/${id}?gender=m,t`, headers }));
  return [
    { ...get('/v1/videos?gender=m,t'), name: 'home feed (guest without id)' },
    { ...get(`${next.pathname}${next.search}`), name: 'home feed page 2' },
    {
      name: 'video start (shared link)',
      sample: { path: `/v1/videos/start/${ids[0]}?gender=m,t`, method: 'GET', headers },
      requests: starts,
    },
    { ...get('/v1/videos?gender=m,t&guest_id=bench-guest-0001'), name: 'home feed (guest with id)' },
    { ...get('/v1/discover?gender=m,t'), name: 'discover' },
    {
      name: 'view post',
      sample: { path: '/v1/video-view', method: 'POST', headers: auth, body: json({ video_id: ids[0] }) },
      requests: views,
    },
    {
      name: 'like post',
      sample: {
        path: '/v1/video-like',
        method: 'POST',
        headers: auth,
        body: json({ video_id: ids[0], type: 'add' }),
      },
      requests: likes,
    },
  ];
}

export async function load(
  base: string,
  scenario: Scenario,
  opts: { connections?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url: base,
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 10,
    requests: scenario.requests,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
