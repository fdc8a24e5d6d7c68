// What the operators' queues cost as they fill (issue 31: a review queue of 1,000 items answers in under
// 100 ms at p99 on PostgreSQL). Synthetic rows, no media: 200 creators with 20,000 public videos around
// the queues, then the same queues at 10 items (the baseline, measured in the same run) and at 1,000: held
// uploads, reported videos (3 reports each), pending identity checks, and 10,000 lines of audit log. Each
// request goes one at a time through app.inject with a real operator session (no HTTP, no crowd: the cost of
// the answer itself). PGlite by default; DATABASE_URL=postgres://… runs it on a fresh database of that server.
// `npm run bench -- queues` (QUEUE_SIZES=10,1000 QUEUE_SAMPLES=100 by default)
import * as OTPAuth from 'otpauth';
import { CLI_ACTOR } from '../../server/admin/audit';
import { createOperator, exchangeInvite, finishSetup, startSetup } from '../../server/admin/operators';
import { createTestContext } from '../api/helpers';

const SIZES = (process.env.QUEUE_SIZES ?? '10,1000').split(',').map(Number);
const SAMPLES = Number(process.env.QUEUE_SAMPLES ?? 100);
const CATALOGUE = 20_000;
const CREATORS = 200;
const AUDIT_LINES = 10_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

type Ctx = Awaited<ReturnType<typeof createTestContext>>;

async function seed(ctx: Ctx, queued: number) {
  const sql = (text: string) => ctx.database.executeSql(text);
  await sql(`insert into users (type, name, username, slug, email, password_hash, verification_status)
    select 'model', 'Creator ' || g, 'q_' || g, 'q-' || g, 'q' || g || '@bench.test', 'x',
      case when g <= ${queued} then 'pending' else 'approved' end
    from generate_series(1, greatest(${CREATORS}, ${queued})) g`);
  const first = `(select min(id) from users where username like 'q\\_%')`;
  // The catalogue around the queues: public, reviewed long ago.
  await sql(`insert into videos (user_id, slug, title, status, review, duration_seconds, playlist_path,
      thumbnail_path, publish_at)
    select ${first} + g % ${CREATORS}, 'clip-' || g, 'Clip ' || g, 'approved', 'none', 8,
      'videos/x/master.m3u8', 'videos/x/thumb.jpg', now() - (g || ' minutes')::interval
    from generate_series(1, ${CATALOGUE}) g`);
  // The review queue: held uploads, details sent, queued a minute apart.
  await sql(`insert into videos (user_id, slug, title, status, review, review_queued_at, duration_seconds,
      playlist_path, thumbnail_path, renditions, publish_at)
    select ${first} + g % ${CREATORS}, 'held-' || g, 'Held ' || g, 'approved', 'held',
      now() - (g || ' minutes')::interval, 8, 'videos/h/master.m3u8', 'videos/h/thumb.jpg',
      '[{"width":360,"height":640,"bandwidth":800000},{"width":540,"height":960,"bandwidth":1500000}]'::jsonb,
      now() - (g || ' minutes')::interval
    from generate_series(1, ${queued}) g`);
  // Reported videos: three open reports on each of `queued` public ones.
  await sql(`insert into reports (video_id, email, reason, message, created_at)
    select v.id, 'reporter' || r || '@bench.test', 'consent', 'Report ' || r, now() - ((v.id + r) || ' minutes')::interval
    from (select id from videos where review = 'none' order by id limit ${queued}) v, generate_series(1, 3) r`);
  // Pending identity checks of the first `queued` creators.
  await sql(`insert into verification_requests (user_id, legal_name, stage_name, address, country, gender,
      date_of_birth, age, identification, identification_id, front_picture_path, back_picture_path,
      face_picture_path, signature_path, created_at)
    select id, 'Legal ' || id, 'Stage ' || id, 'Street 1', 'DE', 'm', '1990-01-01', 36, 'passport', 'X' || id,
      'v/f.jpg', 'v/b.jpg', 'v/s.jpg', 'v/sig.jpg', now() - (id || ' minutes')::interval
    from users where verification_status = 'pending'`);
  await sql(`insert into audit_log (actor, action, target_type, target_id, reason, created_at)
    select 'cli', case when g % 2 = 0 then 'video.approve' else 'report.dismiss' end, 'video', g::text,
      'bench', now() - (g || ' seconds')::interval
    from generate_series(1, ${AUDIT_LINES}) g`);
  await sql(ctx.database.kind === 'pglite' ? 'vacuum analyze' : 'analyze');

  // A real operator session, as the console holds one.
  const { token: invite } = await createOperator(ctx.database.db, CLI_ACTOR, 'bench@ops.test', 'admin');
  const challenge = (await exchangeInvite(ctx.database.db, invite)) ?? '';
  const { secret } = await startSetup(ctx.database.db, challenge);
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.replace(/\s/g, '')) }).generate();
  const session = await finishSetup(
    ctx.database.db,
    { challenge, password: 'bench password 123', code },
    undefined,
  );
  return session.access_token;
}

async function measure(ctx: Ctx, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const get = async (url: string) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res.json() as { data: unknown[]; links?: { next?: string | null } };
  };
  const nth = async (url: string, n: number) => {
    let next: string | null | undefined = url;
    for (let i = 1; i < n && next; i++) next = (await get(next)).links?.next;
    return next ?? url;
  };
  const cases: [string, string][] = [
    ['review queue, page 1', '/v1/admin/review'],
    ['review queue, page 10', await nth('/v1/admin/review', 10)],
    ['reports, page 1', '/v1/admin/reports'],
    ['identity checks, page 1', '/v1/admin/verifications'],
    ['dashboard', '/v1/admin/dashboard'],
    ['audit log, page 1', '/v1/admin/audit'],
    ['audit log, one action', '/v1/admin/audit?action=report.dismiss'],
    ['account search', '/v1/admin/accounts?q=q-5'],
  ];
  const out: Record<string, { p50: number; p99: number }> = {};
  for (const [label, url] of cases) {
    for (let i = 0; i < 5; i++) await get(url);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      await get(url);
      times.push(performance.now() - start);
    }
    out[label] = { p50: pct(times, 50), p99: pct(times, 99) };
  }
  return out;
}

export async function moderationBench(): Promise<Record<string, string>> {
  const results: Record<number, Record<string, { p50: number; p99: number }>> = {};
  const out: Record<string, string> = {
    database: process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (in memory)',
    method: `${CATALOGUE.toLocaleString('en')} public videos around the queues, ${AUDIT_LINES.toLocaleString('en')} audit lines, ${SAMPLES} sequential requests per figure after 5 warm-ups, through app.inject`,
  };
  for (const size of SIZES) {
    const ctx = await createTestContext();
    try {
      const token = await seed(ctx, size);
      results[size] = await measure(ctx, token);
      out[`queues of ${size.toLocaleString('en')}`] = Object.entries(results[size] ?? {})
        .map(([k, r]) => `${k} p50 ${r.p50.toFixed(1)} / p99 ${r.p99.toFixed(1)} ms`)
        .join('; ');
    } finally {
      await ctx.close();
    }
  }
  const baseline = results[SIZES[0] ?? 0];
  const largest = results[SIZES.at(-1) ?? 0];
  if (baseline && largest && SIZES.length > 1) {
    for (const label of Object.keys(largest)) {
      out[`${label}: ${SIZES.at(-1)} vs ${SIZES[0]} items (p99)`] =
        `${largest[label]?.p99.toFixed(1)} vs ${baseline[label]?.p99.toFixed(1)} ms`;
    }
    const review = largest['review queue, page 1']?.p99 ?? Number.POSITIVE_INFINITY;
    out[`goal: review queue of ${SIZES.at(-1)} under 100 ms at p99`] = review < 100 ? 'met' : 'NOT met';
  }
  return out;
}
