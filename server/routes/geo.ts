// Geo-blocking: creators hide themselves from whole countries, or from single regions of the United
// States, Canada and the United Kingdom.
import type { FastifyInstance } from 'fastify';
import {
  countryListSchema,
  geoBlockInputSchema,
  geoBlockListSchema,
  geoMessages,
  regionListSchema,
} from '../../src/contract';
import { requireCreator } from '../auth/permissions';
import type { AppDeps } from '../deps';
import * as q from '../geo/queries';
import { countries, isKnownCountry, isKnownRegion, REGION_COUNTRIES, regions } from '../geo/reference';
import { creatorsOnly, invalid, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';
import { contentChanged } from '../videos/freshness';

/** Validated (country, region) pair; region '' means the entire country, as stored. */
function geoPair(body: unknown): q.GeoPair {
  const input = parse(geoBlockInputSchema, body);
  if (!isKnownCountry(input.country_code)) {
    throw new HttpError(422, geoMessages.unknownCountry, { country_code: [geoMessages.unknownCountry] });
  }
  const regionCode = input.region_code ?? '';
  if (regionCode !== '' && !isKnownRegion(input.country_code, regionCode)) {
    throw new HttpError(422, geoMessages.unknownRegion, { region_code: [geoMessages.unknownRegion] });
  }
  return { countryCode: input.country_code, regionCode };
}

// The lists change only with a package upgrade, i.e. a deploy: a day of caching is safe.
const CACHE = 'public, max-age=86400';

export default async function geoRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const countriesDoc: Operation = {
    summary: 'ISO 3166-1 alpha-2 countries (cacheable for a day)',
    responses: { 200: { description: 'All countries, by name.', schema: countryListSchema } },
  };
  app.get('/v1/geo/countries', { config: { doc: countriesDoc } }, async (_request, reply) => {
    reply.header('Cache-Control', CACHE);
    return { data: countries };
  });

  const regionsDoc: Operation = {
    summary: 'ISO 3166-2 regions of the United States, Canada and the United Kingdom (cacheable for a day)',
    responses: { 200: { description: 'The regions.', schema: regionListSchema } },
  };
  app.get('/v1/geo/regions', { config: { doc: regionsDoc } }, async (_request, reply) => {
    reply.header('Cache-Control', CACHE);
    return { data: regions };
  });

  async function listFor(userId: number) {
    const rows = await q.blocksOf(db, userId);
    return {
      countries: rows.map((r) => ({ country_code: r.countryCode, region_code: r.regionCode || null })),
    };
  }

  const blockList = {
    200: { description: 'The list.', schema: geoBlockListSchema },
    401: unauthenticated,
    403: creatorsOnly,
  };
  const listDoc: Operation = {
    summary: 'The creator’s geo-blocks (region_code null: the whole country)',
    auth: 'required',
    responses: blockList,
  };
  app.get('/v1/profile/get-geo-blocked-countries', { config: { doc: listDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps));
    return listFor(user.id);
  });

  const changeDoc = (verb: string): Operation => ({
    summary: `${verb} a country or one of its regions`,
    auth: 'required',
    body: geoBlockInputSchema,
    description:
      `No region (or null/empty): the whole country. An unknown country is 422 '${geoMessages.unknownCountry}'. ` +
      `Regions exist for ${REGION_COUNTRIES.join(', ')} only; any other is 422 '${geoMessages.unknownRegion}'. ` +
      'Adding an existing pair or deleting a missing one changes nothing and answers 200. The answer is the ' +
      'new list.',
    responses: { ...blockList, 422: invalid },
  });

  const blockDoc = changeDoc('Block');
  // Adding an existing pair still answers 200 with the list (spec §5: ignored).
  app.post('/v1/profile/add-geo-blocked-country', { config: { doc: blockDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps));
    const pair = geoPair(request.body);
    await q.addBlock(db, user.id, pair);
    // Her videos leave that place's feeds now, not when their cached pages expire.
    contentChanged(db);
    return listFor(user.id);
  });

  const unblockDoc = changeDoc('Unblock');
  app.post('/v1/profile/delete-geo-blocked-country', { config: { doc: unblockDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps));
    const pair = geoPair(request.body);
    await q.deleteBlock(db, user.id, pair);
    contentChanged(db);
    return listFor(user.id);
  });
}
