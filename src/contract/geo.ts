import * as v from 'valibot';

export const geoMessages = {
  unknownRegion: 'Error: Unknown region.',
  unknownCountry: 'Error: Unknown country.',
  // Spec §8, as the geo-blocking screen shows them.
  couldNotAdd: 'Error: Could not add to the blocked list.',
  couldNotRemove: 'Error: Could not remove from the blocked list.',
  /** The creator's own blocked list did not load. */
  couldNotGetList: 'Error: Could not get countries list',
  /** The reference list of countries (or regions) to choose from did not load. */
  couldNotFetchCountries: 'Error: Could not fetch countries list',
} as const;

/**
 * POST /v1/profile/add-geo-blocked-country and delete-geo-blocked-country. Codes are normalised to upper
 * case; an empty or null region means the whole country. Membership in the ISO lists is checked by the
 * server, which owns the reference data (GET /v1/geo/countries, /v1/geo/regions).
 */
export const geoBlockInputSchema = v.object({
  country_code: v.pipe(
    v.string(geoMessages.unknownCountry),
    v.trim(),
    v.regex(/^[A-Za-z]{2}$/, geoMessages.unknownCountry),
    v.toUpperCase(),
  ),
  region_code: v.optional(
    v.nullable(
      v.pipe(
        v.string(geoMessages.unknownRegion),
        v.trim(),
        v.regex(/^([A-Za-z]{2}-)?[A-Za-z0-9]{0,3}$/, geoMessages.unknownRegion),
        v.toUpperCase(),
        // Accept the ISO 3166-2 form "US-CA" as well as the bare "CA".
        v.transform((code) => code.replace(/^[A-Z]{2}-/, '')),
      ),
    ),
  ),
});
export type GeoBlockInput = v.InferOutput<typeof geoBlockInputSchema>;

export const geoBlockEntrySchema = v.object({
  country_code: v.string(),
  /** null: the entire country. */
  region_code: v.nullable(v.string()),
});
export type GeoBlockEntry = v.InferOutput<typeof geoBlockEntrySchema>;

export const geoBlockListSchema = v.object({ countries: v.array(geoBlockEntrySchema) });

/** GET /v1/geo/countries */
export const countryListSchema = v.object({
  data: v.array(v.object({ code: v.string(), name: v.string() })),
});
export type CountryList = v.InferOutput<typeof countryListSchema>;

/** GET /v1/geo/regions: the regions creators may block one by one (United States, Canada, United Kingdom). */
export const regionListSchema = v.object({
  data: v.array(v.object({ name: v.string(), countryCode: v.string(), regionCode: v.string() })),
});
export type RegionList = v.InferOutput<typeof regionListSchema>;
