import { type CountryList, countryListSchema, type RegionList, regionListSchema } from '../contract';
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
