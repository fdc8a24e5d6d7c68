// Countries and regions a creator may block (spec §3 'Reference lists'). Reference data comes from
// `country-region-data` (ISO 3166-1 alpha-2 countries, ISO 3166-2 subdivision codes), never typed by hand.
import { allCountries } from 'country-region-data';
import { HttpError } from '../http/errors';

/** Countries whose regions may be blocked one by one. */
export const REGION_COUNTRIES = ['US', 'CA', 'GB'] as const;

export const countries = allCountries
  .map(([name, code]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));
const countryCodes = new Set<string>(countries.map((c) => c.code));

export const regions = allCountries
  .filter(([, code]) => (REGION_COUNTRIES as readonly string[]).includes(code))
  .flatMap(([, countryCode, list]) => list.map(([name, regionCode]) => ({ name, countryCode, regionCode })));
const regionKeys = new Set(regions.map((r) => `${r.countryCode}-${r.regionCode}`));

export const isKnownCountry = (code: string) => countryCodes.has(code);
export const isKnownRegion = (countryCode: string, regionCode: string) =>
  regionKeys.has(`${countryCode}-${regionCode}`);

/** Contracts check a country code's form only; whether it is in the ISO list is checked here, by its owner. */
export function requireKnownCountry(code: string | undefined, message: string): void {
  if (code && !isKnownCountry(code.toUpperCase())) throw new HttpError(422, message, { country: [message] });
}
