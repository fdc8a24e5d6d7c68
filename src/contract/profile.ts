// Own-profile payloads (spec §5 'Profile edit', 'Password change', 'Add link'; §7 POST /v1/profile).
import * as v from 'valibot';
import { PASSWORD_MIN, present, usernameSchema } from './auth';
import { genderSchema, idSchema } from './common';
import { messages } from './messages';
import { linkSchema } from './user';

const p = messages.profile;

/** Optional http(s), a domain with a TLD of 2+ letters, optional port and path (spec §5 'Add link'). */
export const LINK_URL_PATTERN =
  /^(https?:\/\/)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?(\/[^\s]*)?$/i;

/** A studio manager edits a member's profile by naming them; everyone else edits their own. */
const userIdField = { user_id: v.optional(idSchema('Invalid user id.')) };

const linkId = idSchema(p.linkNotFound);

export const linkActionSchema = v.variant(
  'action',
  [
    v.object({
      action: v.literal('add'),
      url: present(
        v.pipe(
          v.string(p.invalidLink),
          v.trim(),
          v.maxLength(2048, p.invalidLink),
          v.regex(LINK_URL_PATTERN, p.invalidLink),
        ),
      ),
      name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(80))),
    }),
    v.object({ action: v.literal('delete'), id: linkId }),
  ],
  'Action must be add or delete.',
);

/** POST /v1/profile `{links: [...]}` */
export const profileLinksSchema = v.object({
  ...userIdField,
  links: v.pipe(v.array(linkActionSchema, p.invalidLink), v.minLength(1, p.invalidLink), v.maxLength(20)),
});
export type ProfileLinksInput = v.InferOutput<typeof profileLinksSchema>;

/** Spec §5/§9: avatar and cover images, checked on the device before a byte is sent and again by the server. */
export const PROFILE_IMAGE_MAX_BYTES = 16 * 1024 * 1024;
/** Spec §9: what the crop exports and the server stores: the avatar square, the cover 2:1, 1000 wide. */
export const PROFILE_IMAGE_BOXES = {
  profile_photo: { width: 150, height: 150 },
  profile_cover: { width: 1000, height: 500 },
} as const;
export type ProfileImageField = keyof typeof PROFILE_IMAGE_BOXES;

// 'image/jpg' is not a registered type, but some systems name JPEG files so.
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg'];
const IMAGE_NAME = /\.(png|jpe?g)$/i;

/**
 * Why a chosen image cannot be sent, or null (spec §5: png, jpeg, jpg up to 16 MB). The type is judged by the
 * MIME type, or by the name where the system gives none (some Android pickers); the server judges the bytes.
 */
export function profileImageProblem(file: { name: string; type: string; size: number }): string | null {
  const typed = file.type === '' ? IMAGE_NAME.test(file.name) : IMAGE_TYPES.includes(file.type);
  if (!typed) return p.imageType;
  if (file.size > PROFILE_IMAGE_MAX_BYTES) return p.imageTooLarge;
  return null;
}

/** POST /v1/profile: any of name, username, description, phone_number. */
export const profileDetailsSchema = v.object({
  ...userIdField,
  name: v.optional(v.pipe(v.string(p.nameRequired), v.trim(), v.nonEmpty(p.nameRequired), v.maxLength(80))),
  username: v.optional(usernameSchema),
  description: v.optional(
    v.nullable(v.pipe(v.string(p.descriptionTooLong), v.maxLength(200, p.descriptionTooLong))),
  ),
  phone_number: v.optional(
    v.pipe(
      v.string(p.phoneTooShort),
      v.trim(),
      v.minLength(4, p.phoneTooShort),
      v.maxLength(32, p.phoneTooShort),
    ),
  ),
});
export type ProfileDetailsInput = v.InferOutput<typeof profileDetailsSchema>;

/** POST /v1/profile `{gender}` */
export const profileGenderSchema = v.object({
  ...userIdField,
  gender: v.picklist(genderSchema.options, messages.auth.invalidGender),
});

/** The genders a viewer wants to see (spec §3 preferencesCategory): 'm', 't' or both, comma-joined. */
export const GENDER_PREFERENCES = ['m', 't', 'm,t'] as const;
export type GenderPreference = (typeof GENDER_PREFERENCES)[number];

const genderOrder = ['m', 't'] as const;

/** Any order and repeats accepted ('t,m'), always stored as one of GENDER_PREFERENCES. */
export const genderPreferenceSchema = v.pipe(
  v.string(p.invalidPreference),
  v.maxLength(16, p.invalidPreference),
  v.regex(/^[mt](,[mt])*$/, p.invalidPreference),
  v.transform(
    (value) => genderOrder.filter((g) => value.split(',').includes(g)).join(',') as GenderPreference,
  ),
);

/** POST /v1/profile `{preference}`: what the account's home and discover show, followed by every device. */
export const profilePreferenceSchema = v.object({
  ...userIdField,
  preference: genderPreferenceSchema,
});

/**
 * POST /v1/profile `{current_password, password, password_confirmation}`. The current password is required
 * by the server unless the session came from a password-reset link (OwnProfile.passwordResetSession).
 */
export const profilePasswordSchema = v.pipe(
  v.object({
    ...userIdField,
    current_password: v.optional(v.pipe(v.string(), v.maxLength(128, p.currentPasswordWrong))),
    password: present(
      v.pipe(
        v.string(p.allFieldsRequired),
        v.nonEmpty(p.allFieldsRequired),
        v.minLength(PASSWORD_MIN, p.newPasswordTooShort),
        v.maxLength(128, p.newPasswordTooShort),
      ),
    ),
    password_confirmation: present(v.pipe(v.string(p.allFieldsRequired), v.nonEmpty(p.allFieldsRequired))),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['password_confirmation']],
      (i) => i.password === i.password_confirmation,
      p.passwordsMustMatch,
    ),
    ['password_confirmation'],
  ),
);

/** POST /v1/profile `{color}`: channels only. */
export const profileColorSchema = v.object({
  ...userIdField,
  color: v.pipe(v.string(p.invalidColor), v.regex(/^#[0-9a-fA-F]{6}$/, p.invalidColor), v.toLowerCase()),
});

/** GET /v1/profile: the own profile, with what only its owner sees. */
export const ownProfileSchema = v.object({
  id: v.number(),
  type: v.picklist(['user', 'model', 'channel']),
  name: v.string(),
  slug: v.string(),
  username: v.string(),
  email: v.string(),
  emailVerified: v.boolean(),
  avatar: v.nullable(v.string()),
  cover: v.nullable(v.string()),
  description: v.nullable(v.string()),
  color: v.nullable(v.string()),
  gender: genderSchema,
  phone_number: v.nullable(v.string()),
  country: v.nullable(v.string()),
  preference: v.nullable(v.string()),
  isLive: v.picklist([0, 1]),
  isVerified: v.picklist(['none', 'pending', 'rejected', 'approved']),
  /** Signed in by a fresh password-reset link: a new password needs no current one (for that hour). */
  passwordResetSession: v.optional(v.boolean(), false),
  /** Why the last verification was rejected, in the operator's words; null unless it was. */
  verificationNote: v.optional(v.nullable(v.string()), null),
  studio: v.nullable(v.object({ id: v.number(), name: v.string(), role: v.nullable(v.string()) })),
  links: v.array(linkSchema),
});
export type OwnProfile = v.InferOutput<typeof ownProfileSchema>;
export const ownProfileResponseSchema = v.object({ data: ownProfileSchema });
export const profileUpdateResponseSchema = v.object({ message: v.string(), user: ownProfileSchema });
