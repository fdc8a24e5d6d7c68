import {
  type CountryList,
  countryListSchema,
  type GeoBlockEntry,
  type GeoBlockInput,
  geoBlockListSchema,
  type RegionList,
  regionListSchema,
} from '../contract';
import { apiFetch } from './http';

// The reference lists rarely change: one answer per page load serves the sign-up, verification and
// geo-blocking screens alike.
let countries: Promise<CountryList['data']> | undefined;
let regions: Promise<RegionList['data']> | undefined;

/** GET /v1/geo/countries: ISO code and English name, sorted by name. */
export function fetchCountries(): Promise<CountryList['data']> {
  countries ??= apiFetch('/v1/geo/countries', { schema: countryListSchema }).then((r) => r.data);
  countries.catch(() => {
    countries = undefined;
  });
  return countries;
}

/** GET /v1/geo/regions: the regions of the United States, Canada and the United Kingdom. */
export function fetchRegions(): Promise<RegionList['data']> {
  regions ??= apiFetch('/v1/geo/regions', { schema: regionListSchema }).then((r) => r.data);
  regions.catch(() => {
    regions = undefined;
  });
  return regions;
}

/** GET /v1/profile/get-geo-blocked-countries: the creator's blocks (region_code null: the whole country). */
export async function fetchGeoBlocks(signal?: AbortSignal): Promise<GeoBlockEntry[]> {
  const { countries } = await apiFetch('/v1/profile/get-geo-blocked-countries', {
    schema: geoBlockListSchema,
    signal,
  });
  return countries;
}

/** POST /v1/profile/add-geo-blocked-country; answers the new list. */
export async function addGeoBlock(entry: GeoBlockInput): Promise<GeoBlockEntry[]> {
  const { countries } = await apiFetch('/v1/profile/add-geo-blocked-country', {
    method: 'POST',
    body: entry,
    schema: geoBlockListSchema,
  });
  return countries;
}

/** POST /v1/profile/delete-geo-blocked-country; answers the new list. */
export async function deleteGeoBlock(entry: GeoBlockInput): Promise<GeoBlockEntry[]> {
  const { countries } = await apiFetch('/v1/profile/delete-geo-blocked-country', {
    method: 'POST',
    body: entry,
    schema: geoBlockListSchema,
  });
  return countries;
}
