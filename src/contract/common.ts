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
