// Logins during a distributed guessing flood (issue 32, finding 6: every login took 16 s while password
// hashing saturated the CPU). A crowd of "addresses" (X-Forwarded-For from loopback, which the server trusts
// by default) sends wrong passwords for every demo account; meanwhile the account's owner signs in from the
// device it used before, and a new device tries too. Beside it, the same owner's logins with no flood, in
// the same run.
import autocannon from 'autocannon';
import { demoEmail, demoPassword, demoUsers } from '../../server/seed/content';
import { startServer } from '../e2e/server';

const FLOOD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const FLOOD_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const OWNER_LOGINS = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const worst = (xs: number[]) => Math.max(...xs);
const address = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

export async function loginBench(): Promise<Record<string, string>> {
  const server = await startServer({ env: { DEMO_VIDEOS: '0' } });
  try {
    const owner = demoUsers[0] as (typeof demoUsers)[number];
    const email = demoEmail(owner.username);
    const device = 'bench-owner-phone-0001';
    let n = 0;
    /**
     * One login of the owner, timed; its status. Each from an address of its own: ten logins from one would meet
     * the per-address limit (AUTH_RATE_LIMIT), which is not what this measures.
     */
    const signIn = async (withDevice: boolean) => {
      n += 1;
      const started = performance.now();
      const res = await fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${n}` },
        body: JSON.stringify({ email, password: demoPassword, ...(withDevice ? { guest_id: device } : {}) }),
      });
      await res.arrayBuffer();
      return { ms: performance.now() - started, status: res.status };
    };
    const quiet: number[] = [];
    for (let i = 0; i < OWNER_LOGINS; i++) quiet.push((await signIn(true)).ms);

    const targets = demoUsers.map((u) => demoEmail(u.username));
    const flood = autocannon({
      url: server.url,
      connections: FLOOD_CONNECTIONS,
      duration: FLOOD_SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/v1/login',
          setupRequest: (req) => ({
            ...req,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
            body: JSON.stringify({
              email: targets[Math.floor(Math.random() * targets.length)],
              password: `guess-${Math.random().toString(36).slice(2)}`,
            }),
          }),
        },
      ],
    });
    await new Promise((r) => setTimeout(r, 3000));
    const during: { ms: number; status: number }[] = [];
    for (let i = 0; i < OWNER_LOGINS; i++) {
      during.push(await signIn(true));
      await new Promise((r) => setTimeout(r, 500));
    }
    const stranger = await signIn(false);
    const result = await flood;
    const answers = Object.entries(result.statusCodeStats ?? {})
      .map(([code, stat]) => `${code} × ${stat?.count ?? 0}`)
      .join(', ');
    const ok = during.filter((d) => d.status === 200).map((d) => d.ms);
    return {
      'owner, no flood (known device)': `median ${median(quiet).toFixed(0)} ms, worst ${worst(quiet).toFixed(0)} ms`,
      [`owner during ${FLOOD_CONNECTIONS} connections of guesses (known device; 16 s before)`]: `${ok.length}/${during.length} signed in (${during.map((d) => d.status).join(' ')}), median ${median(ok).toFixed(0)} ms, worst ${worst(ok).toFixed(0)} ms`,
      'owner from a new device during the flood': `${stranger.status} in ${stranger.ms.toFixed(0)} ms`,
      'the flood': `${result.requests.total} guesses in ${FLOOD_SECONDS} s: ${answers}, p50 ${result.latency.p50} ms, errors ${result.errors}`,
    };
  } finally {
    await server.stop();
  }
}
