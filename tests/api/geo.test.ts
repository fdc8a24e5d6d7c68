import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { countryListSchema, geoBlockListSchema, regionListSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { bearer, type Cast, createCast, type Role } from './social-helpers';

let ctx: TestContext;
let cast: Cast;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

const post = (url: string, headers: Record<string, string>, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url, headers, payload: payload as object });
const add = (headers: Record<string, string>, payload: unknown) =>
  post('/v1/profile/add-geo-blocked-country', headers, payload);
const remove = (headers: Record<string, string>, payload: unknown) =>
  post('/v1/profile/delete-geo-blocked-country', headers, payload);
const list = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/v1/profile/get-geo-blocked-countries', headers });

describe('reference lists', () => {
  it('serves ISO countries and the US, Canada and UK regions, cacheable', async () => {
    const countries = await ctx.app.inject({ method: 'GET', url: '/v1/geo/countries' });
    expect(countries.statusCode).toBe(200);
    expect(countries.headers['cache-control']).toContain('max-age=');
    const { data } = v.parse(countryListSchema, countries.json());
    expect(data.length).toBeGreaterThan(240);
    expect(data).toContainEqual({ code: 'DE', name: 'Germany' });
    expect(data.every((c) => /^[A-Z]{2}$/.test(c.code))).toBe(true);

    const regions = await ctx.app.inject({ method: 'GET', url: '/v1/geo/regions' });
    const list = v.parse(regionListSchema, regions.json()).data;
    expect(new Set(list.map((r) => r.countryCode))).toEqual(new Set(['US', 'CA', 'GB']));
    expect(list).toContainEqual({ name: 'California', countryCode: 'US', regionCode: 'CA' });
    expect(list).toContainEqual({ name: 'Ontario', countryCode: 'CA', regionCode: 'ON' });
    expect(list.filter((r) => r.countryCode === 'US').length).toBeGreaterThanOrEqual(50);
  });
});

describe('geo-block add / delete / list', () => {
  it('adds countries and regions, ignores duplicates, lists them and deletes them', async () => {
    const model = await insertUser(ctx, { type: 'channel' });
    const headers = await bearer(ctx, model.id);
    expect((await add(headers, { country_code: 'de' })).statusCode).toBe(200);
    expect((await add(headers, { country_code: 'DE', region_code: null })).statusCode).toBe(200);
    expect((await add(headers, { country_code: 'US', region_code: 'US-CA' })).statusCode).toBe(200);
    const dup = await add(headers, { country_code: 'US', region_code: 'ca' });
    expect(dup.statusCode).toBe(200);
    const listed = v.parse(geoBlockListSchema, (await list(headers)).json());
    expect(listed.countries).toEqual([
      { country_code: 'DE', region_code: null },
      { country_code: 'US', region_code: 'CA' },
    ]);
    const rows = await ctx.database.db.select().from(t.geoBlocks);
    expect(rows.filter((r) => r.userId === model.id)).toHaveLength(2);

    const del = await remove(headers, { country_code: 'US', region_code: 'CA' });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ countries: [{ country_code: 'DE', region_code: null }] });
  });

  it('answers the spec messages for unknown regions and countries', async () => {
    const model = await insertUser(ctx);
    const headers = await bearer(ctx, model.id);
    for (const payload of [
      { country_code: 'US', region_code: 'ZZ' },
      { country_code: 'DE', region_code: 'BY' },
      { country_code: 'GB', region_code: 'CA' },
      { country_code: 'US', region_code: 'not a region' },
      { country_code: 'US', region_code: 42 },
    ]) {
      const res = await add(headers, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'Error: Unknown region.',
        errors: { region_code: ['Error: Unknown region.'] },
      });
    }
    for (const payload of [{}, { country_code: 'XX' }, { country_code: 'USA' }, { country_code: 7 }]) {
      const res = await add(headers, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.country_code).toEqual(['Error: Unknown country.']);
    }
    expect((await list(headers)).json()).toEqual({ countries: [] });
  });

  it.each<[Role, number]>([
    ['guest', 401],
    ['user', 403],
    ['owner', 200],
    ['other', 200],
    ['manager', 200],
  ])('permission matrix (each creator edits their own list): %s → %i', async (role, status) => {
    for (const res of [
      await add(cast.headers[role], { country_code: 'FR' }),
      await remove(cast.headers[role], { country_code: 'FR' }),
      await list(cast.headers[role]),
    ]) {
      expect(res.statusCode).toBe(status);
      if (status !== 200) expect(typeof res.json().message).toBe('string');
    }
  });
});

describe('enforcement', () => {
  it('hides a blocking creator from profile reads, video lists and the user list, by country and by region', async () => {
    const creator = await insertUser(ctx, { type: 'channel', name: 'Hidden Channel', gender: 't' });
    await insertVideo(ctx, { userId: creator.id });
    const headers = await bearer(ctx, creator.id);
    await add(headers, { country_code: 'IT' });
    await add(headers, { country_code: 'US', region_code: 'NY' });

    const from = (country?: string, region?: string) => ({
      ...(country ? { 'cf-ipcountry': country } : {}),
      ...(region ? { 'cf-region-code': region } : {}),
    });
    const visible = async (geo: Record<string, string>) => {
      const profile = await ctx.app.inject({ method: 'GET', url: `/v1/users/${creator.slug}`, headers: geo });
      const videos = await ctx.app.inject({
        method: 'GET',
        url: `/v1/users/${creator.id}/videos`,
        headers: geo,
      });
      const users = await ctx.app.inject({
        method: 'GET',
        url: '/v1/users?type=channel&gender=t',
        headers: geo,
      });
      const listed = users.json().data.some((u: { id: number }) => u.id === creator.id);
      expect([profile.statusCode, videos.statusCode].every((s) => s === profile.statusCode)).toBe(true);
      return { status: profile.statusCode, listed };
    };
    expect(await visible(from())).toEqual({ status: 200, listed: true });
    expect(await visible(from('FR'))).toEqual({ status: 200, listed: true });
    expect(await visible(from('IT'))).toEqual({ status: 404, listed: false });
    expect(await visible(from('it', 'IT-RM'))).toEqual({ status: 404, listed: false });
    expect(await visible(from('US', 'US-NY'))).toEqual({ status: 404, listed: false });
    expect(await visible(from('US', 'NY'))).toEqual({ status: 404, listed: false });
    expect(await visible(from('US', 'US-CA'))).toEqual({ status: 200, listed: true });
    expect(await visible(from('US'))).toEqual({ status: 200, listed: true });

    const blocked = await ctx.app.inject({
      method: 'GET',
      url: `/v1/users/${creator.id}`,
      headers: from('IT'),
    });
    expect(blocked.json()).toEqual({ message: 'Not found.' });
  });
});
