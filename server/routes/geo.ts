// Geo-blocking: creators hide themselves from whole countries, or from single regions of the United
// States, Canada and the United Kingdom. Reference data comes from `country-region-data` (ISO 3166-1
// alpha-2 countries, ISO 3166-2 subdivision codes), never typed by hand.
import { allCountries } from 'country-region-data';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  countryListSchema,
  geoBlockInputSchema,
  geoBlockListSchema,
  geoMessages,
  regionListSchema,
} from '../../src/contract';
import { requireCreator } from '../auth/permissions';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { creatorsOnly, invalid, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';

/** Countries whose regions may be blocked one by one (spec §3 'Reference lists'). */
const REGION_COUNTRIES = ['US', 'CA', 'GB'] as const;

const countries = allCountries
  .map(([name, code]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));
const countryCodes = new Set<string>(countries.map((c) => c.code));

/** Contracts check a country code's form only; whether it is in the ISO list is checked here, by its owner. */
export function requireKnownCountry(code: string | undefined, message: string): void {
  if (code && !countryCodes.has(code.toUpperCase()))
    throw new HttpError(422, message, { country: [message] });
}

const regions = allCountries
  .filter(([, code]) => (REGION_COUNTRIES as readonly string[]).includes(code))
  .flatMap(([, countryCode, list]) => list.map(([name, regionCode]) => ({ name, countryCode, regionCode })));
const regionKeys = new Set(regions.map((r) => `${r.countryCode}-${r.regionCode}`));

/** Validated (country, region) pair; region '' means the entire country, as stored. */
function geoPair(body: unknown): { countryCode: string; regionCode: string } {
  const input = parse(geoBlockInputSchema, body);
  if (!countryCodes.has(input.country_code)) {
    throw new HttpError(422, geoMessages.unknownCountry, { country_code: [geoMessages.unknownCountry] });
  }
  const regionCode = input.region_code ?? '';
  if (regionCode !== '' && !regionKeys.has(`${input.country_code}-${regionCode}`)) {
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
    const rows = await db
      .select({ countryCode: t.geoBlocks.countryCode, regionCode: t.geoBlocks.regionCode })
      .from(t.geoBlocks)
      .where(eq(t.geoBlocks.userId, userId))
      .orderBy(asc(t.geoBlocks.countryCode), asc(t.geoBlocks.regionCode));
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
  // Adding an existing pair changes nothing and still answers 200 with the list (spec §5: ignored).
  app.post('/v1/profile/add-geo-blocked-country', { config: { doc: blockDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps));
    const pair = geoPair(request.body);
    await db
      .insert(t.geoBlocks)
      .values({ userId: user.id, ...pair })
      .onConflictDoNothing();
    return listFor(user.id);
  });

  const unblockDoc = changeDoc('Unblock');
  app.post('/v1/profile/delete-geo-blocked-country', { config: { doc: unblockDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps));
    const pair = geoPair(request.body);
    await db
      .delete(t.geoBlocks)
      .where(
        and(
          eq(t.geoBlocks.userId, user.id),
          eq(t.geoBlocks.countryCode, pair.countryCode),
          eq(t.geoBlocks.regionCode, pair.regionCode),
        ),
      );
    return listFor(user.id);
  });
}
