import * as v from 'valibot';
import { dataOf } from './common';

/** The static page slugs the footer links to. Others may be created by the operator. */
export const pageSlugs = ['faq', 'policy', 'dmca', '2257', 'support', 'terms'] as const;

export const pageSlugSchema = v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/));

export const pageSchema = v.object({
  slug: v.string(),
  title: v.string(),
  /** HTML from the server: always sanitised before it is rendered. */
  content: v.string(),
});
export type Page = v.InferOutput<typeof pageSchema>;

export const pageResponseSchema = dataOf(pageSchema);
