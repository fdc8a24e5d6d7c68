import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';

export default async function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  // Load balancers poll this: it proves the process answers and the database does too.
  app.get('/healthz', async (_request, reply) => {
    await deps.database.db.execute(sql`select 1`);
    return reply.header('Cache-Control', 'no-store').send({ status: 'ok' });
  });
}
