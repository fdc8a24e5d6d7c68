// Sign-up, sign-in, mailed login links, password reset and logout (spec §5, §7).
import { randomBytes } from 'node:crypto';
import { eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  checkUsernameSchema,
  forgotPasswordSchema,
  type LoginResponse,
  loginSchema,
  loginTokenSchema,
  messages,
  registerSchema,
  resendEmailSchema,
} from '../../src/contract';
import { consumeOneTimeToken, issueOneTimeToken } from '../auth/one-time';
import { hashPassword, verifyPassword } from '../auth/password';
import { issueAccessToken, revokeAccessToken, type UserRow } from '../auth/tokens';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { authLimit } from '../http/rate-limit';
import { parse } from '../http/validate';
import { bearerOf, requireUser } from '../http/viewer';
import { sendMail } from '../mail/mailer';
import { requireKnownCountry } from './geo';

const m = messages.auth;

/** Profiles live at /{username}: a username must never shadow a route of the app or the API. */
export const RESERVED_USERNAMES = new Set([
  'register',
  'login',
  'forgot-password',
  'channels',
  'upload',
  'account',
  'join-studio',
  'videos-rating',
  'support',
  'page',
  'discover',
  'tag',
  'video',
  'v1',
  'media',
  'healthz',
]);

export async function usernameAvailable(db: Db, username: string, exceptUserId?: number): Promise<boolean> {
  if (RESERVED_USERNAMES.has(username.toLowerCase())) return false;
  const rows = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(
      or(
        sql`lower(${t.users.username}) = lower(${username})`,
        sql`lower(${t.users.slug}) = lower(${username})`,
      ),
    );
  return rows.every((r) => r.id === exceptUserId);
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

/** Fixed cost for unknown emails too, so response time does not tell which accounts exist. */
let dummyHash: Promise<string> | undefined;

export default async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const link = (token: string) => `${deps.config.publicUrl}/login/${token}`;

  const mailVerification = async (user: Pick<UserRow, 'id' | 'email' | 'name'>) => {
    const url = link(await issueOneTimeToken(db, user.id, 'verify_email'));
    await sendMail(deps, {
      to: user.email,
      subject: 'Verify your email',
      text: `Hi ${user.name},\n\nconfirm your email address and log in with this link (valid for 48 hours):\n\n${url}\n`,
      link: url,
    });
  };

  const loginAnswer = async (user: UserRow, rememberMe: boolean): Promise<LoginResponse> => ({
    access_token: await issueAccessToken(db, user.id, rememberMe),
    user: { id: user.id, type: user.type },
  });

  app.post('/v1/check-username', async (request) => {
    const { username } = parse(checkUsernameSchema, request.body);
    const available = await usernameAvailable(db, username);
    return { available, message: available ? m.usernameAvailable : m.usernameTaken };
  });

  app.post('/v1/register', { config: authLimit(deps) }, async (request, reply) => {
    const input = parse(registerSchema, request.body);
    requireKnownCountry(input.country, m.countryRequired);
    let username = input.username;
    if (username && !(await usernameAvailable(db, username))) {
      throw new HttpError(422, m.usernameTaken, { username: [m.usernameTaken] });
    }
    // Viewers never pick a username in the stepper; give them a unique one they can change later.
    username ??= `${input.name.replace(/[^A-Za-z0-9_-]+/g, '').slice(0, 20) || 'user'}_${randomBytes(3).toString('hex')}`;
    const [taken] = await db
      .select({ id: t.users.id })
      .from(t.users)
      .where(sql`lower(${t.users.email}) = ${input.email}`);
    if (taken) throw new HttpError(422, m.emailTaken, { email: [m.emailTaken] });
    let user: UserRow | undefined;
    try {
      [user] = await db
        .insert(t.users)
        .values({
          type: input.type,
          name: input.name,
          username,
          slug: username.toLowerCase(),
          email: input.email,
          passwordHash: await hashPassword(input.password),
          gender: input.gender,
          preference: input.preference ?? null,
          country: input.country ? input.country.toUpperCase() : null,
          phoneNumber: input.phone_number || null,
        })
        .returning();
    } catch (err) {
      // Two sign-ups racing for the same name or address: the unique indexes decide.
      if (isUniqueViolation(err)) throw new HttpError(422, m.usernameTaken, { username: [m.usernameTaken] });
      throw err;
    }
    if (!user) throw new Error('insert returned nothing');
    await mailVerification(user);
    return reply.status(201).send({ message: m.registered, user: { id: user.id, type: user.type } });
  });

  app.post('/v1/resend-email', { config: authLimit(deps) }, async (request) => {
    const { email } = parse(resendEmailSchema, request.body);
    const [user] = await db.select().from(t.users).where(sql`lower(${t.users.email}) = ${email}`);
    if (user && !user.emailVerifiedAt) await mailVerification(user);
    return { message: m.verificationResent };
  });

  app.post('/v1/login', { config: authLimit(deps) }, async (request) => {
    const input = parse(loginSchema, request.body);
    const [user] = await db.select().from(t.users).where(sql`lower(${t.users.email}) = ${input.email}`);
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash));
    if (!user || !ok) throw new HttpError(401, m.invalidCredentials);
    return loginAnswer(user, input.remember_me);
  });

  // The client's /login/{token} page posts the token here: verification and reset mails log straight in.
  app.post('/v1/login/token', { config: authLimit(deps) }, async (request) => {
    const { token } = parse(loginTokenSchema, request.body);
    const used = await consumeOneTimeToken(db, token);
    if (!used) throw new HttpError(401, m.invalidLoginLink);
    const [user] =
      used.kind === 'verify_email'
        ? await db
            .update(t.users)
            .set({ emailVerifiedAt: sql`coalesce(${t.users.emailVerifiedAt}, now())` })
            .where(eq(t.users.id, used.userId))
            .returning()
        : await db.select().from(t.users).where(eq(t.users.id, used.userId));
    if (!user) throw new HttpError(401, m.invalidLoginLink);
    return loginAnswer(user, false);
  });

  app.post('/v1/forgot-password', { config: authLimit(deps) }, async (request) => {
    const { email } = parse(forgotPasswordSchema, request.body);
    const [user] = await db.select().from(t.users).where(sql`lower(${t.users.email}) = ${email}`);
    if (user) {
      const url = link(await issueOneTimeToken(db, user.id, 'password_reset'));
      await sendMail(deps, {
        to: user.email,
        subject: 'Change your password',
        text: `Hi ${user.name},\n\nthis link logs you in for one hour; then set a new password under Account > Password:\n\n${url}\n\nIf you did not ask for it, ignore this mail.\n`,
        link: url,
      });
    }
    // The same answer either way, so the form cannot be used to find out who has an account.
    return { message: m.recoverySent };
  });

  app.post('/v1/logout', async (request) => {
    await requireUser(request, deps);
    const token = bearerOf(request);
    if (token) await revokeAccessToken(db, token);
    return { message: m.loggedOut };
  });
}
