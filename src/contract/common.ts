import * as v from 'valibot';
import { serverMessages } from './common-messages';

export const genderSchema = v.picklist(['m', 't']);
export type Gender = v.InferOutput<typeof genderSchema>;

export const videoStatusSchema = v.picklist([
  'uploaded',
  'preprocess',
  'processing',
  'approved',
  'rejected',
  'deleting',
  'error',
]);
export type VideoStatus = v.InferOutput<typeof videoStatusSchema>;

export const userTypeSchema = v.picklist(['user', 'model', 'channel']);
export type UserType = v.InferOutput<typeof userTypeSchema>;

export const verificationStatusSchema = v.picklist(['none', 'pending', 'rejected', 'approved']);
export type VerificationStatus = v.InferOutput<typeof verificationStatusSchema>;

/** A query-string field of a list call: an optional schema of the value as sent (a string). */
type QueryField = v.OptionalSchema<v.GenericSchema<string, unknown>, string | undefined>;

/** The field as a list query reads it: empty is absent, so the field's own default (if any) applies. */
type BlankIsAbsent<F extends QueryField> = v.OptionalSchema<
  v.SchemaWithPipe<readonly [v.StringSchema<undefined>, v.TransformAction<string, string | undefined>, F]>,
  F['default']
>;

// The schema builders here carry /* @__NO_SIDE_EFFECTS__ */ as valibot's own do: without it the bundler must
// keep every schema built with them, so the server's query schemas (feedQuerySchema...) went to every
// browser in the first download of `/`.
/* @__NO_SIDE_EFFECTS__ */
const blankIsAbsent = <F extends QueryField>(field: F): BlankIsAbsent<F> =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((value): string | undefined => (value === '' ? undefined : value)),
      field,
    ),
    field.default,
  );

/**
 * The query of a list call. A key sent with an empty value means the key was not given: the spec's own
 * calls look like `?gender=&per_page=20&page=` (a client fills its URL template whether or not it has a
 * value), and answering them 422 would break every such client.
 */
/* @__NO_SIDE_EFFECTS__ */
export function listQuery<E extends Record<string, QueryField>>(entries: E) {
  const fields = Object.fromEntries(
    Object.entries(entries).map(([key, field]) => [key, blankIsAbsent(field)]),
  );
  return v.object(fields as { [K in keyof E]: BlankIsAbsent<E[K]> });
}

/** Laravel-like list envelope: `{ data, links: { next } }`, `next` is null on the last page. */
/* @__NO_SIDE_EFFECTS__ */
export const listOf = <T extends v.GenericSchema>(item: T) =>
  v.object({
    data: v.array(item),
    links: v.object({ next: v.nullable(v.string()) }),
  });

/** Laravel-like single envelope: `{ data }`. */
/* @__NO_SIDE_EFFECTS__ */
export const dataOf = <T extends v.GenericSchema>(item: T) => v.object({ data: item });

/** Every non-2xx answer: `{ message }`; a 422 adds `errors: { field: [messages] }`. */
export const errorResponseSchema = v.object({
  message: v.string(),
  errors: v.optional(v.record(v.string(), v.array(v.string()))),
});

// ---- ids, page fields and text: one rule for every payload ----------------------------------------------

/** Largest PostgreSQL `integer`, the type of every id: a larger number names nothing. */
export const MAX_ID = 2_147_483_647;

/**
 * A row id as a path segment or a query value sends it: digits only, 1 to MAX_ID. Undefined otherwise, so a
 * path answers the same 404 as an id that does not exist, and nothing out of range reaches the database.
 */
export function idOf(value: string): number | undefined {
  if (!/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}

/**
 * A row id in a JSON body or a form: a number or its digits, 1 to MAX_ID. A missing key answers `message`
 * too (the server's parse reads a missing key's message from the schema), never valibot's generic words.
 */
/* @__NO_SIDE_EFFECTS__ */
export const idSchema = (message: string) =>
  v.pipe(
    v.union([v.number(message), v.pipe(v.string(), v.regex(/^\d{1,10}$/), v.transform(Number))], message),
    v.integer(message),
    v.minValue(1, message),
    v.maxValue(MAX_ID, message),
  );

/** Ids joined by commas, as list filters send them (`tags=1,2`): each one within range. */
export const idListSchema = v.pipe(
  v.string(),
  v.check((s) => s.split(',').every((part) => idOf(part) !== undefined), serverMessages.invalidIds),
);

/** `page` of a list query: pages from 1. */
export const pageField = v.optional(
  v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, serverMessages.invalidPage), v.transform(Number)),
);

/** `gender` of a list query: creator genders, comma joined. */
export const genderFilterField = v.optional(
  v.pipe(v.string(), v.regex(/^[mt](,[mt])?$/, serverMessages.invalidGenderFilter)),
);

/** `per_page` of a list query; each list caps it at its own maximum. */
export const perPageField = v.optional(
  v.pipe(v.string(), v.regex(/^[1-9]\d{0,2}$/, serverMessages.invalidPerPage), v.transform(Number)),
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether text is well-formed UTF-16: no half of a surrogate pair on its own. A lone surrogate cannot be
 * encoded as UTF-8 (PostgreSQL's jsonb refuses its escape, and text would silently become U+FFFD), so no
 * field may carry one; the server refuses it in every body and query before a handler runs.
 */
export const isWellFormedText = (s: string): boolean => !LONE_SURROGATE.test(s);

/** PostgreSQL text cannot hold U+0000; refusing it here keeps such input a 422 instead of a 500. */
/* @__NO_SIDE_EFFECTS__ */
export const noNul = (message: string) => v.check((s: string) => !s.includes('\u0000'), message);
