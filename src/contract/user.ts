import * as v from 'valibot';
import { dataOf, genderSchema, userTypeSchema, verificationStatusSchema } from './common';

/** One shape wherever a profile's links appear (public and own profile): the server writes it in presentLink. */
export const linkSchema = v.object({
  id: v.number(),
  url: v.string(),
  name: v.string(),
  icon: v.nullable(v.string()),
  isLive: v.picklist([0, 1]),
  isImportant: v.picklist([0, 1]),
});
export type Link = v.InferOutput<typeof linkSchema>;

export const contestSchema = v.object({
  id: v.number(),
  title: v.string(),
  /** HTML: sanitised before rendering. */
  content: v.string(),
});
export type Contest = v.InferOutput<typeof contestSchema>;

/** A profile as anyone may see it (GET /v1/users/{id}). */
export const publicUserSchema = v.object({
  id: v.number(),
  type: userTypeSchema,
  name: v.string(),
  slug: v.string(),
  username: v.string(),
  avatar: v.nullable(v.string()),
  cover: v.nullable(v.string()),
  description: v.nullable(v.string()),
  color: v.nullable(v.string()),
  gender: genderSchema,
  isLive: v.picklist([0, 1]),
  isVerified: verificationStatusSchema,
  isFollowing: v.boolean(),
  links: v.array(linkSchema),
  contests: v.array(contestSchema),
  totalLikes: v.number(),
  totalVideoViews: v.number(),
  totalFollowers: v.number(),
});
export type PublicUser = v.InferOutput<typeof publicUserSchema>;

export const publicUserResponseSchema = dataOf(publicUserSchema);
