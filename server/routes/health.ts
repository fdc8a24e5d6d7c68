import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { databaseAnswers } from '../health/queries';

/** How long a dependency may take to answer a readiness probe before it counts as down. */
const CHECK_MS = 2000;

const within = <T>(work: Promise<T>) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_MS).unref()),
  ]);

export default async function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  // Liveness: the process answers. An orchestrator restarts a process that stops answering this, so it asks
  // nothing of the database: a database outage is not cured by restarting every API node.
  app.get('/healthz', { config: { rateLimit: false } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
  );

  // Readiness: whether this node can serve now. A load balancer sends it requests only while this says so;
  // a node that is draining for a restart says no first (server/main.ts).
  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) => {
    const checks: Record<string, 'ok' | 'down' | 'draining'> = {};
    const probe = async (name: string, work: () => Promise<unknown>) => {
      checks[name] = await within(work()).then(
        () => 'ok' as const,
        () => 'down' as const,
      );
    };
    await Promise.all([
      probe('database', () => databaseAnswers(deps.database.db)),
      probe('storage', () => deps.storage.check()),
      ...(app.redis ? [probe('redis', () => (app.redis as NonNullable<typeof app.redis>).ping())] : []),
    ]);
    if (app.draining) checks.server = 'draining';
    const ready = Object.values(checks).every((c) => c === 'ok');
    return reply
      .status(ready ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: ready ? 'ready' : 'unavailable', checks });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when a SIGTERM starts the drain: readiness says no while in-flight requests finish. */
    draining: boolean;
  }
}
