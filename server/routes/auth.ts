// Sign-up, sign-in, mailed login links, password reset and logout (spec §5, §7).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  checkUsernameResponseSchema,
  checkUsernameSchema,
  forgotPasswordSchema,
  type LoginResponse,
  loginAnswerSchema,
  loginSchema,
  loginTokenAnswerSchema,
  loginTokenSchema,
  messages,
  registerResponseSchema,
  registerSchema,
  resendEmailSchema,
} from '../../src/contract';
import { adminMessages } from '../../src/contract/admin';
import { exchangeInvite, operatorByEmail, totpChallenge } from '../admin/operators';
import { HashQueue, HashTiming, QueueFull } from '../auth/hash-queue';
import { consumeOneTimeToken, issueOneTimeToken, ONE_TIME_TTL_MS } from '../auth/one-time';
import { hashPassword, verifyPassword } from '../auth/password';
import * as q from '../auth/queries';
import { ACCESS_TOKEN_TTL_MS, issueAccessToken, revokeAccessToken, type UserRow } from '../auth/tokens';
import type { AppDeps } from '../deps';
import { requireKnownCountry } from '../geo/reference';
import { limitKey } from '../http/address';
import { ERR, invalid, messageSchema, type Operation, rateLimited, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { authLimit, checkUsernameLimit, loginAttempts } from '../http/rate-limit';
import { parse } from '../http/validate';
import { bearerOf, requireUser } from '../http/viewer';
import { sendMail } from '../mail/mailer';
import { RESERVED_USERNAMES, usernameAvailable } from '../users/profile';

const m = messages.auth;

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

/** A device id a login may carry: the client's guest id, which the app sends with every guest post. */
function deviceOf(request: FastifyRequest): string | undefined {
  const id = (request.body as { guest_id?: unknown } | undefined)?.guest_id;
  return typeof id === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(id) ? id : undefined;
}

export default async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const queue =
    deps.loginQueue ?? new HashQueue(deps.config.loginHashConcurrency, deps.config.loginQueueDepth);
  const timing = new HashTiming();
  /**
   * A password hash or check through the queue: a device known to the account goes first; past the queue's
   * depth the answer is 503 with Retry-After, at once, rather than a wait behind a flood.
   */
  const hashed = async <T>(work: () => Promise<T>, priority: boolean): Promise<T> => {
    try {
      return await queue.run(
        async () => {
          const started = performance.now();
          const result = await work();
          timing.observe(performance.now() - started);
          return result;
        },
        { priority },
      );
    } catch (err) {
      if (!(err instanceof QueueFull)) throw err;
      throw new HttpError(503, m.busy, undefined, 2);
    }
  };
  const link = (token: string) => `${deps.config.publicUrl}/login/${token}`;

  /**
   * At most MAILS_PER_INBOX resend and reset mails reach one address an hour (40 came in seconds): past that
   * nothing is sent, and the answer is the same, so it still tells nobody whether the address has an account.
   */
  const inboxMayReceive = async (email: string) =>
    (await app.counters.hit(`inbox:${email.toLowerCase()}`, 3600_000)) <= deps.config.mailsPerInbox;

  const mailVerification = async (user: Pick<UserRow, 'id' | 'email' | 'name'>) => {
    const url = link(await issueOneTimeToken(db, user.id, 'verify_email'));
    await sendMail(deps, {
      to: user.email,
      subject: 'Verify your email',
      text: `Hi ${user.name},\n\nconfirm your email address and log in with this link (valid for 48 hours):\n\n${url}\n`,
      link: url,
    });
  };

  const loginAnswer = async (
    user: UserRow,
    rememberMe: boolean,
    resetUntil?: Date,
  ): Promise<LoginResponse> => ({
    access_token: await issueAccessToken(db, user.id, rememberMe, resetUntil),
    user: { id: user.id, type: user.type },
  });

  /** A lifetime in words: hours up to three days, days beyond. */
  const span = (ms: number) => {
    const [n, unit] = ms < 72 * 3600_000 ? [ms / 3600_000, 'hour'] : [ms / 86_400_000, 'day'];
    return `${n} ${unit}${n === 1 ? '' : 's'}`;
  };
  const tooMany = rateLimited(deps.config.authRateLimit, deps.config.rateLimitWindowMs);
  const loggedIn = {
    description:
      'Logged in: a bearer token and who it is for. For an operator’s email: `{operator_challenge, step: ' +
      "'totp'}`, the challenge of the second step (POST /v1/admin/sign-in).",
    schema: loginAnswerSchema,
  };
  /** A suspended account learns it only with the right password, so the answer reveals nothing to others. */
  const refuseSuspended = (user: UserRow) => {
    if (user.suspendedAt) throw new HttpError(403, adminMessages.suspended);
  };
  /** Calls that answer the same whether the address has an account, so they reveal nobody. */
  const sameAnswer = {
    description: 'The same answer whether or not the address has an account.',
    schema: messageSchema,
  };

  const checkDoc: Operation = {
    summary: 'Whether a username is free',
    body: checkUsernameSchema,
    description:
      'Free when no account uses it as username or profile slug (any case) and it is not reserved, since ' +
      `profiles live at /{username}: ${[...RESERVED_USERNAMES].join(', ')}.`,
    responses: {
      200: { description: '`{available, message}`.', schema: checkUsernameResponseSchema },
      422: invalid,
      429: rateLimited(deps.config.checkUsernameRateLimit, deps.config.rateLimitWindowMs),
    },
  };
  app.post(
    '/v1/check-username',
    { config: { ...checkUsernameLimit(deps), doc: checkDoc } },
    async (request) => {
      const { username } = parse(checkUsernameSchema, request.body);
      const available = await usernameAvailable(db, username);
      return { available, message: available ? m.usernameAvailable : m.usernameTaken };
    },
  );

  const registerDoc: Operation = {
    summary: 'Create an account',
    body: registerSchema,
    description:
      'Creators (model, channel) must send `username`, `country`, `phone_number` and `terms`; a viewer ' +
      '(user) without a username gets one made from the name. Email and username are unique in any case. ' +
      `Does not log in: it mails a link, valid ${span(ONE_TIME_TTL_MS.verify_email)}, that verifies the ` +
      'email and logs in (POST /v1/login/token).',
    responses: {
      201: { description: 'Created: `{message, user: {id, type}}`.', schema: registerResponseSchema },
      422: { description: `Validation, \`${m.usernameTaken}\` or \`${m.emailTaken}\`.`, ...ERR },
      429: tooMany,
    },
  };
  app.post('/v1/register', { config: { ...authLimit(deps), doc: registerDoc } }, async (request, reply) => {
    const input = parse(registerSchema, request.body);
    requireKnownCountry(input.country, m.countryRequired);
    let username = input.username;
    if (username && !(await usernameAvailable(db, username))) {
      throw new HttpError(422, m.usernameTaken, { username: [m.usernameTaken] });
    }
    // Viewers never pick a username in the stepper; give them a unique one they can change later.
    username ??= `${input.name.replace(/[^A-Za-z0-9_-]+/g, '').slice(0, 20) || 'user'}_${randomBytes(3).toString('hex')}`;
    // An operator's address signs in to the console: an account of the app cannot share it.
    if ((await q.emailTaken(db, input.email)) || (await operatorByEmail(db, input.email))) {
      throw new HttpError(422, m.emailTaken, { email: [m.emailTaken] });
    }
    let user: UserRow;
    try {
      user = await q.insertUser(db, {
        type: input.type,
        name: input.name,
        username,
        slug: username.toLowerCase(),
        email: input.email,
        passwordHash: await hashed(() => hashPassword(input.password), false),
        gender: input.gender,
        preference: input.preference ?? null,
        country: input.country ? input.country.toUpperCase() : null,
        phoneNumber: input.phone_number || null,
      });
    } catch (err) {
      // Two sign-ups racing for the same name or address: the unique indexes decide.
      if (isUniqueViolation(err)) throw new HttpError(422, m.usernameTaken, { username: [m.usernameTaken] });
      throw err;
    }
    await mailVerification(user);
    return reply.status(201).send({ message: m.registered, user: { id: user.id, type: user.type } });
  });

  const resendDoc: Operation = {
    summary: 'Mail the email verification link again',
    body: resendEmailSchema,
    description: 'A new link goes out only when the account exists and its email is not verified yet.',
    responses: { 200: sameAnswer, 422: invalid, 429: tooMany },
  };
  app.post('/v1/resend-email', { config: { ...authLimit(deps), doc: resendDoc } }, async (request) => {
    const { email } = parse(resendEmailSchema, request.body);
    const user = await q.userByEmail(db, email);
    if (user && !user.emailVerifiedAt && (await inboxMayReceive(user.email))) await mailVerification(user);
    return { message: m.verificationResent };
  });

  const loginDoc: Operation = {
    summary: 'Log in with email and password',
    body: loginSchema,
    description:
      `The token is valid ${span(ACCESS_TOKEN_TTL_MS.session)}, or ${span(ACCESS_TOKEN_TTL_MS.remember)} ` +
      'with `remember_me`. An unknown email and a wrong password get the same answer in the same time. ' +
      `After ${deps.config.loginFailureLimit} failed logins of one email from one network (an IPv4 address or ` +
      `an IPv6 /${deps.config.ipv6LimitPrefix}) within ${Math.round(deps.config.rateLimitWindowMs / 60_000)} ` +
      "minutes, that network's logins of that email answer 429 until the window ends (a success clears the " +
      `count). After ${deps.config.loginGlobalFailureLimit} failed logins of one email from anywhere, only a ` +
      'device that signed in to it before (its `guest_id`) may still try. Password checks wait in a bounded ' +
      'queue, devices the account knows first: past it, 503 with Retry-After. With Redis configured and down, ' +
      'logins answer 503 rather than count per node.',
    responses: {
      200: loggedIn,
      401: { description: `\`${m.invalidCredentials}\``, ...ERR },
      403: { description: `Right password, suspended account: \`${adminMessages.suspended}\``, ...ERR },
      422: invalid,
      429: {
        description:
          `More than ${deps.config.authRateLimit} requests from one address, or ` +
          `${deps.config.loginFailureLimit} failed logins of this email from this network, or the email's ` +
          'global limit from an unknown device, within ' +
          `${Math.round(deps.config.rateLimitWindowMs / 60_000)} minutes.`,
        ...ERR,
      },
      503: {
        description: `\`${m.busy}\` (with Retry-After): the password checks are queued full, or Redis is down.`,
        ...ERR,
      },
    },
  };
  const attempts = loginAttempts(app, deps);
  app.post('/v1/login', { config: { ...authLimit(deps), doc: loginDoc } }, async (request) => {
    const input = parse(loginSchema, request.body);
    const device = deviceOf(request);
    const who = { email: input.email, network: limitKey(request.ip, deps.config.ipv6LimitPrefix), device };
    const trusted = await attempts.check(who);
    const refuse = async (): Promise<never> => {
      await attempts.failed(who);
      throw new HttpError(401, m.invalidCredentials);
    };
    const operator = await operatorByEmail(db, input.email);
    const user = operator ? undefined : await q.userByEmail(db, input.email);
    if (!operator && !user) {
      // An unknown email waits as long as a check takes, without spending a hash on it: a flood of made-up
      // addresses costs no CPU, and the answer's timing still tells nothing.
      await timing.wait();
      return refuse();
    }
    const check = (hash: string | null) => hashed(() => verifyPassword(input.password, hash ?? '!'), trusted);
    if (operator) {
      // Operators sign in here too; the password only earns the challenge of their second factor.
      if (!(await check(operator.passwordHash)) || !operator.totpSecret) return refuse();
      await attempts.succeeded(who);
      return { operator_challenge: await totpChallenge(db, operator), step: 'totp' as const };
    }
    if (!user || !(await check(user.passwordHash))) return refuse();
    await attempts.succeeded(who);
    refuseSuspended(user);
    return loginAnswer(user, input.remember_me);
  });

  const tokenDoc: Operation = {
    summary: 'Log in with the one-time token of a mailed link',
    body: loginTokenSchema,
    description:
      'The token of `/login/{token}` links; each works once and marks the email verified (the link came ' +
      `to that mailbox). A verification link lasts ${span(ONE_TIME_TTL_MS.verify_email)}; a password ` +
      `reset link (${span(ONE_TIME_TTL_MS.password_reset)}) logs in so that the user sets a new password. The token ` +
      `is valid ${span(ACCESS_TOKEN_TTL_MS.session)}, or ${span(ACCESS_TOKEN_TTL_MS.remember)} with ` +
      '`remember_me`; `link` says which mail the link came from.',
    responses: {
      200: {
        description: 'Logged in: a bearer token, who it is for, and the kind of link.',
        schema: loginTokenAnswerSchema,
      },
      403: { description: `A suspended account: \`${adminMessages.suspended}\``, ...ERR },
      401: { description: `Unknown, used or expired: \`${m.invalidLoginLink}\``, ...ERR },
      422: { description: `Malformed: \`${m.invalidLoginLink}\``, ...ERR },
      429: tooMany,
    },
  };
  // The client's /login/{token} page posts the token here: verification and reset mails log straight in.
  app.post('/v1/login/token', { config: { ...authLimit(deps), doc: tokenDoc } }, async (request) => {
    const { token, remember_me } = parse(loginTokenSchema, request.body);
    const used = await consumeOneTimeToken(db, token);
    if (!used) {
      // An operator's sign-in link (npm run admin -- operator create): on to setting up the second factor.
      const setup = await exchangeInvite(db, token);
      if (setup) return { operator_challenge: setup, step: 'setup' as const };
      throw new HttpError(401, m.invalidLoginLink);
    }
    // Whoever opens a mailed link reads that mailbox: any link confirms the address, not only the
    // verification mail's (a reset link opened before the verification mail leaves nothing to confirm).
    const user = await q.confirmEmail(db, used.userId);
    if (!user) throw new HttpError(401, m.invalidLoginLink);
    refuseSuspended(user);
    // A reset link's session may set the new password without the old one, for the link's own hour.
    const resetUntil =
      used.kind === 'password_reset' ? new Date(Date.now() + ONE_TIME_TTL_MS.password_reset) : undefined;
    return { ...(await loginAnswer(user, remember_me, resetUntil)), link: used.kind };
  });

  const forgotDoc: Operation = {
    summary: 'Mail a link that logs in to change the password',
    body: forgotPasswordSchema,
    description:
      `The link logs in once within ${span(ONE_TIME_TTL_MS.password_reset)} (POST /v1/login/token); the ` +
      'new password is then set with POST /v1/profile.',
    responses: { 200: sameAnswer, 422: invalid, 429: tooMany },
  };
  app.post('/v1/forgot-password', { config: { ...authLimit(deps), doc: forgotDoc } }, async (request) => {
    const { email } = parse(forgotPasswordSchema, request.body);
    const user = await q.userByEmail(db, email);
    if (user && (await inboxMayReceive(user.email))) {
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

  const logoutDoc: Operation = {
    summary: 'Log out: revoke the bearer token',
    auth: 'required',
    description: 'Only the token sent is revoked; other devices stay logged in.',
    responses: { 200: { description: '`{message}`.', schema: messageSchema }, 401: unauthenticated },
  };
  app.post('/v1/logout', { config: { doc: logoutDoc } }, async (request) => {
    await requireUser(request, deps);
    const token = bearerOf(request);
    if (token) await revokeAccessToken(db, token);
    return { message: m.loggedOut };
  });
}
