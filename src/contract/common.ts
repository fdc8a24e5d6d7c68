import * as v from 'valibot';

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
export function listQuery<E extends Record<string, QueryField>>(entries: E) {
  const fields = Object.fromEntries(
    Object.entries(entries).map(([key, field]) => [key, blankIsAbsent(field)]),
  );
  return v.object(fields as { [K in keyof E]: BlankIsAbsent<E[K]> });
}

/** Laravel-like list envelope: `{ data, links: { next } }`, `next` is null on the last page. */
export const listOf = <T extends v.GenericSchema>(item: T) =>
  v.object({
    data: v.array(item),
    links: v.object({ next: v.nullable(v.string()) }),
  });

/** Laravel-like single envelope: `{ data }`. */
export const dataOf = <T extends v.GenericSchema>(item: T) => v.object({ data: item });

/** Every non-2xx answer: `{ message }`; a 422 adds `errors: { field: [messages] }`. */
export const errorResponseSchema = v.object({
  message: v.string(),
  errors: v.optional(v.record(v.string(), v.array(v.string()))),
});
export type ErrorResponse = v.InferOutput<typeof errorResponseSchema>;
