import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { messages, pageSlugSchema } from '../../src/contract';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { notFound } from '../http/errors';

const paramsSchema = v.object({ slug: pageSlugSchema });

export default async function pageRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/v1/page/:slug', async (request, reply) => {
    if (!v.is(paramsSchema, request.params)) throw notFound(messages.page.notFound);
    const { db } = deps.database;
    const [page] = await db.select().from(t.pages).where(eq(t.pages.slug, request.params.slug));
    if (!page) throw notFound(messages.page.notFound);
    // Pages change rarely; a short shared cache spares the database without hiding an edit for long.
    return reply
      .header('Cache-Control', 'public, max-age=300')
      .send({ data: { slug: page.slug, title: page.title, content: page.content } });
  });
}
