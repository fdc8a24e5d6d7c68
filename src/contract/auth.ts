// Sign-up and sign-in payloads (spec §5). The client validates with these before sending and the server
// validates the same way again, so every message below is the one both sides show.
import * as v from 'valibot';
import { genderSchema, userTypeSchema } from './common';
import { messages } from './messages';

const m = messages.auth;

/** Letters, numbers, hyphen and underscore; the same rule for sign-up, the availability check and edits. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const PASSWORD_MIN = 8;

export const usernameSchema = v.pipe(
  v.string(m.usernameRequired),
  v.trim(),
  v.nonEmpty(m.usernameRequired),
  v.regex(USERNAME_PATTERN, m.usernameInvalid),
  // Usernames become profile URLs; a bound keeps them readable and the index small.
  v.maxLength(32, 'Username cannot exceed 32 characters.'),
);

/**
 * A missing key must read like an empty field ('Please fill all the fields.'), not like a schema error:
 * absent values become '' and meet the same nonEmpty check.
 */
export const present = <S extends v.GenericSchema<string, unknown>>(schema: S) => v.optional(schema, '');

const requiredText = (message: string, max = 255) =>
  present(v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(max, message)));

const emailSchema = (required: string) =>
  present(
    v.pipe(
      v.string(required),
      v.trim(),
      v.nonEmpty(required),
      v.maxLength(254, m.invalidEmail),
      v.email(m.invalidEmail),
      v.toLowerCase(),
    ),
  );

/** Checkbox values as browsers and JSON clients send them. */
const checkbox = v.optional(
  v.pipe(
    v.union([v.boolean(), v.picklist([0, 1, '0', '1', 'true', 'false', 'on'])]),
    v.transform((x) => x === true || x === 1 || x === '1' || x === 'true' || x === 'on'),
  ),
  false,
);

/** POST /v1/check-username */
export const checkUsernameSchema = v.object({ username: present(usernameSchema) });
export const checkUsernameResponseSchema = v.object({ available: v.boolean(), message: v.string() });

const isCreator = (type: string) => type === 'model' || type === 'channel';

/**
 * POST /v1/register. Creators (model, channel) choose a username and must give country, phone and accept
 * the terms; a viewer account (user) gets a username derived from the name when it sends none.
 */
export const registerSchema = v.pipe(
  v.object({
    type: v.picklist(userTypeSchema.options, m.invalidType),
    name: requiredText(m.fillAllFields, 80),
    username: v.optional(usernameSchema),
    email: emailSchema(m.fillAllFields),
    password: present(
      v.pipe(
        v.string(m.fillAllFields),
        v.nonEmpty(m.fillAllFields),
        v.minLength(PASSWORD_MIN, m.passwordTooShort),
        // scrypt of a megabyte would be a cheap denial of service.
        v.maxLength(128, 'Password cannot exceed 128 characters.'),
      ),
    ),
    password_confirmation: present(v.pipe(v.string(m.fillAllFields), v.nonEmpty(m.fillAllFields))),
    gender: v.optional(v.picklist(genderSchema.options, m.invalidGender), 'm'),
    preference: v.optional(v.pipe(v.string(), v.regex(/^[mt](,[mt])*$/, 'Invalid preference.'))),
    country: v.optional(
      v.pipe(v.string(m.countryRequired), v.trim(), v.regex(/^$|^[A-Za-z]{2}$/, m.countryRequired)),
    ),
    phone_number: v.optional(v.pipe(v.string(m.phoneRequired), v.trim(), v.maxLength(32, m.phoneRequired))),
    terms: checkbox,
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['password_confirmation']],
      (i) => i.password === i.password_confirmation,
      m.passwordsDoNotMatch,
    ),
    ['password_confirmation'],
  ),
  v.forward(
    v.partialCheck([['type'], ['username']], (i) => !isCreator(i.type) || !!i.username, m.usernameRequired),
    ['username'],
  ),
  v.forward(
    v.partialCheck([['type'], ['country']], (i) => !isCreator(i.type) || !!i.country, m.countryRequired),
    ['country'],
  ),
  v.forward(
    v.partialCheck(
      [['type'], ['phone_number']],
      (i) => !isCreator(i.type) || (i.phone_number ?? '').length > 3,
      m.phoneRequired,
    ),
    ['phone_number'],
  ),
  v.forward(
    v.partialCheck([['type'], ['terms']], (i) => !isCreator(i.type) || i.terms, m.termsRequired),
    ['terms'],
  ),
);
export type RegisterInput = v.InferOutput<typeof registerSchema>;

export const authUserSchema = v.object({ id: v.number(), type: userTypeSchema });
export const registerResponseSchema = v.object({ message: v.string(), user: authUserSchema });

/** POST /v1/login */
export const loginSchema = v.object({
  email: present(
    v.pipe(
      v.string(m.loginFillAll),
      v.nonEmpty(m.loginFillAll),
      v.regex(/^\S+$/, m.loginEmailSpaces),
      v.maxLength(254, m.invalidCredentials),
      v.toLowerCase(),
    ),
  ),
  password: present(
    v.pipe(v.string(m.loginFillAll), v.nonEmpty(m.loginFillAll), v.maxLength(128, m.invalidCredentials)),
  ),
  remember_me: checkbox,
});
export type LoginInput = v.InferOutput<typeof loginSchema>;
export const loginResponseSchema = v.object({ access_token: v.string(), user: authUserSchema });
export type LoginResponse = v.InferOutput<typeof loginResponseSchema>;

/**
 * POST /v1/login/token: the one-time token of a mailed link (`/login/{token}` in the client). `remember_me`
 * as for POST /v1/login: a link opened on one's own phone is meant to keep that phone signed in.
 */
export const loginTokenSchema = v.object({
  token: v.pipe(v.string(m.invalidLoginLink), v.regex(/^[A-Za-z0-9_-]{20,128}$/, m.invalidLoginLink)),
  remember_me: checkbox,
});
/** Which mail the link came from: a reset link's screen offers to set a new password. */
export const loginLinkKindSchema = v.picklist(['verify_email', 'login', 'password_reset']);
export const loginTokenResponseSchema = v.object({
  ...loginResponseSchema.entries,
  link: loginLinkKindSchema,
});
export type LoginTokenResponse = v.InferOutput<typeof loginTokenResponseSchema>;

/**
 * POST /v1/login for an operator's email and password, and POST /v1/login/token for an operator's sign-in
 * link: no session yet, but the challenge of the next step in the console (/admin/sign-in): a TOTP code, or
 * the setup of the second factor.
 */
export const operatorChallengeSchema = v.object({
  operator_challenge: v.string(),
  step: v.picklist(['totp', 'setup']),
});
export type OperatorChallenge = v.InferOutput<typeof operatorChallengeSchema>;
export const loginAnswerSchema = v.union([loginResponseSchema, operatorChallengeSchema]);
export const loginTokenAnswerSchema = v.union([loginTokenResponseSchema, operatorChallengeSchema]);

/** POST /v1/forgot-password ('Pleas' is the spec's exact wording). */
export const forgotPasswordSchema = v.object({ email: emailSchema(m.recoveryEmailRequired) });

/** POST /v1/resend-email */
export const resendEmailSchema = v.object({ email: emailSchema(m.fillAllFields) });

/** The answer of calls that only say what happened: resend-email, forgot-password, logout. */
export const authMessageResponseSchema = v.object({ message: v.string() });

/** POST /v1/contact: the spec asks nothing more of the client than an email input. */
export const contactSchema = v.object({
  email: emailSchema(m.invalidEmail),
  message: present(
    v.pipe(
      v.string(messages.contact.messageRequired),
      v.trim(),
      v.nonEmpty(messages.contact.messageRequired),
      v.maxLength(5000, 'Message cannot exceed 5000 characters.'),
    ),
  ),
});
export type ContactInput = v.InferOutput<typeof contactSchema>;
/** POST /v1/contact answers 201 `{message: 'Message sent.'}`. */
export const contactResponseSchema = v.object({ message: v.string() });
