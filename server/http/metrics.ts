// What operators watch (issue 32): Prometheus metrics through prom-client, and readiness apart from
// liveness. /metrics is never public: on its own port bound to loopback (METRICS_PORT), and/or on the main
// port behind a bearer token (METRICS_TOKEN); with neither set it answers 404.
// The shared registry and its counters live in server/util/metrics.ts.

import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import type { AppDeps } from '../deps';
import { metrics } from '../util/metrics';

const UPLOAD_ROUTES = new Set(['PATCH /v1/uploads/*', 'PATCH /v1/uploads/:id', 'POST /v1/videos/upload']);

/** Counts every answer, and serves /metrics as configured. */
export async function installMetrics(app: FastifyInstance, deps: AppDeps) {
  const m = metrics();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    m.requests.inc(labels);
    m.duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) m.rateLimited.inc({ route });
    if (reply.getHeader('idempotent-replayed') === 'true') m.replays.inc({ route });
    if (UPLOAD_ROUTES.has(`${request.method} ${route}`)) {
      const bytes = Number(request.headers['content-length'] ?? 0);
      if (bytes > 0 && reply.statusCode < 400) m.uploadBytes.inc(bytes);
    }
  });

  // Figures read at each scrape: the database pool and the job queues.
  const pool = new Gauge({
    name: 'shortcams_db_pool_connections',
    help: 'PostgreSQL pool connections by state (PGlite has none)',
    labelNames: ['state'],
    registers: [],
    collect() {
      const stats = deps.database.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  const queueDepth = new Gauge({
    name: 'shortcams_job_queue_depth',
    help: 'Jobs waiting or running, by queue and state',
    labelNames: ['queue', 'state'],
    registers: [],
  });
  const queueAge = new Gauge({
    name: 'shortcams_job_queue_oldest_seconds',
    help: 'Age of the oldest job waiting or running, by queue',
    labelNames: ['queue'],
    registers: [],
  });
  const readQueues = async () => {
    queueDepth.reset();
    queueAge.reset();
    if (!deps.jobs) return;
    const { rows } = await deps.database.executeSql(
      `select name, state::text as state, count(*)::int as n,
              extract(epoch from now() - min(created_on))::float8 as oldest
         from pgboss.job where state < 'completed' group by name, state`,
    );
    const oldest = new Map<string, number>();
    for (const row of rows as { name: string; state: string; n: number; oldest: number }[]) {
      queueDepth.set({ queue: row.name, state: row.state }, row.n);
      oldest.set(row.name, Math.max(oldest.get(row.name) ?? 0, row.oldest));
    }
    for (const [queue, age] of oldest) queueAge.set({ queue }, age);
  };
  /** The shared registry, plus this app's own gauges, as Prometheus text. */
  const scrape = async () => {
    await readQueues().catch(() => undefined);
    const own = new Registry();
    own.registerMetric(pool);
    own.registerMetric(queueDepth);
    own.registerMetric(queueAge);
    return {
      contentType: m.registry.contentType,
      body: `${await m.registry.metrics()}\n${await own.metrics()}`,
    };
  };

  const token = deps.config.metricsToken;
  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const ok =
      token !== undefined &&
      given.length === token.length &&
      timingSafeEqual(Buffer.from(given), Buffer.from(token));
    // Without a token configured the route does not exist here, whatever is sent.
    if (!ok)
      return reply
        .status(token === undefined ? 404 : 401)
        .send({ message: token === undefined ? 'Not found.' : 'Unauthenticated.' });
    const { contentType, body } = await scrape();
    return reply.header('Content-Type', contentType).header('Cache-Control', 'no-store').send(body);
  });

  if (deps.config.metricsPort !== undefined) {
    // Its own listener on loopback: reachable by a Prometheus beside the process, never from outside.
    const server = http.createServer((req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      scrape().then(
        ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    });
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve) => server.listen(deps.config.metricsPort, '127.0.0.1', resolve));
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
}
