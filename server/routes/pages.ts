import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { messages, pageResponseSchema, pageSlugSchema, pageSlugs } from '../../src/contract';
import type { AppDeps } from '../deps';
import { ERR, type Operation } from '../http/doc';
import { notFound } from '../http/errors';
import { pageBySlug } from '../pages/queries';

const paramsSchema = v.object({ slug: pageSlugSchema });

export default async function pageRoutes(app: FastifyInstance, deps: AppDeps) {
  const pageDoc: Operation = {
    summary: 'A static page by slug',
    description:
      `The footer’s pages (${pageSlugs.join(', ')}) and any the operator adds. \`content\` is HTML: ` +
      'sanitise it before rendering. Cacheable for 5 minutes.',
    responses: {
      200: { description: 'The page.', schema: pageResponseSchema },
      404: { description: `\`${messages.page.notFound}\` (also for a malformed slug).`, ...ERR },
    },
  };
  app.get('/v1/page/:slug', { config: { doc: pageDoc } }, async (request, reply) => {
    if (!v.is(paramsSchema, request.params)) throw notFound(messages.page.notFound);
    const page = await pageBySlug(deps.database.db, request.params.slug);
    if (!page) throw notFound(messages.page.notFound);
    // Pages change rarely; a short shared cache spares the database without hiding an edit for long.
    return reply
      .header('Cache-Control', 'public, max-age=300')
      .send({ data: { slug: page.slug, title: page.title, content: page.content } });
  });
}
