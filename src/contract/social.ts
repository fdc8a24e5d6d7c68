import * as v from 'valibot';
import { genderFilterField, idSchema, listOf, listQuery, pageField } from './common';

export const socialMessages = {
  followSelf: 'You cannot follow yourself.',
  followTarget: 'Only models and channels can be followed.',
  invalidKey: 'Invalid key',
  leaveFailed: 'Error leaving studio',
  leaveTitle: 'Leave studio',
  leaveQuestion: 'Are you sure you want to leave the studio?',
  leaveConfirm: 'Delete',
  studioOnlyCreators: 'Only models and channels can join a studio.',
  managerCannotLeave: 'A studio manager cannot leave the studio; ask the operator.',
  notInStudio: 'You are not in a studio.',
  creatorsOnly: 'Only models and channels can do this.',
  missingViewer: 'Missing guest id.',
} as const;

/** POST /v1/follow-model: 201 when a follow row was created, 200 when nothing changed or it was removed. */
export const followInputSchema = v.object({
  model_id: idSchema('Missing model id.'),
  action: v.picklist(['follow', 'unfollow'], 'Action must be follow or unfollow.'),
});

export const followResponseSchema = v.object({ isFollowing: v.boolean(), totalFollowers: v.number() });

/** POST /v1/profile/join-studio */
export const joinStudioSchema = v.object({
  key: v.pipe(v.string(socialMessages.invalidKey), v.trim(), v.minLength(1, socialMessages.invalidKey)),
});

export const studioResponseSchema = v.object({ name: v.string() });

/** GET /v1/profile/following-models */
export const followedModelSchema = v.object({
  model: v.object({
    id: v.number(),
    slug: v.string(),
    name: v.string(),
    avatar: v.nullable(v.string()),
    isLive: v.picklist([0, 1]),
  }),
});
export const followingModelsResponseSchema = v.object({ data: v.array(followedModelSchema) });

/** A creator card in GET /v1/users?type=channel&gender=m. */
export const channelCardSchema = v.object({
  id: v.number(),
  slug: v.string(),
  name: v.string(),
  avatar: v.nullable(v.string()),
  cover: v.nullable(v.string()),
  description: v.nullable(v.string()),
  color: v.nullable(v.string()),
  isLive: v.picklist([0, 1]),
});
export const channelListSchema = listOf(channelCardSchema);

export const pageQuerySchema = listQuery({ page: pageField });

export const userListQuerySchema = listQuery({
  type: v.optional(v.picklist(['model', 'channel'], 'Type must be model or channel.'), 'channel'),
  gender: genderFilterField,
  page: pageField,
});

/** Tracking posts answer 201 with this body; a replay with the same Idempotency-Key gets the same answer. */
export const trackingResponseSchema = v.object({ status: v.literal('ok') });
