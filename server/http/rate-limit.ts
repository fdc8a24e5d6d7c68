// Per-address limits on the routes that attract abuse (credential stuffing, mail bombing, scripted likes),
// and the counters behind the limits the plugin cannot express (server/http/counters.ts). In memory for one
// node; with REDIS_URL both live in Redis, so every API node counts the same requests.
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { reportMessages } from '../../src/contract/interactions';
import { messages } from '../../src/contract/messages';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import { limitKey } from './address';
import { type Counters, FailoverCounters, MemoryCounters, RedisCounters } from './counters';
import { HttpError } from './errors';
import { isReplay } from './idempotency';

declare module 'fastify' {
  interface FastifyInstance {
    /** Windowed counters shared by every node when Redis is configured. */
    counters: Counters;
    /** The Redis connection of the counters, when configured (readiness pings it). */
    redis: Redis | undefined;
  }
}

export async function installRateLimit(app: FastifyInstance, config: Config) {
  // ioredis is loaded only when configured: 85 ms of a single node's start otherwise.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        // A request waits for Redis at most this long; then its node counts in memory (FailoverCounters)
        // rather than failing every limited route while Redis restarts.
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
        // While disconnected a command fails at once instead of waiting in a queue for the reconnects: a
        // login must not hang for seconds on a counter store that is down.
        enableOfflineQueue: false,
        lazyConnect: false,
      })
    : undefined;
  // ioredis reports every failed reconnect as an 'error' event; FailoverCounters logs the outage once.
  redis?.on('error', (err) => app.log.debug({ err }, 'redis'));
  // Without an offline queue, the first requests would skip a Redis that is still connecting: wait for it
  // briefly at start, and start anyway (counting per node) when it is down.
  if (redis && redis.status !== 'ready')
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, 3000);
      redis.once('ready', done);
    });
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  const counters: Counters = redis
    ? new FailoverCounters(new RedisCounters(redis), new MemoryCounters(), app.log)
    : new MemoryCounters();
  app.decorate('counters', counters);
  app.decorate('redis', redis);
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => limitKey(request.ip, config.ipv6LimitPrefix),
    // With Redis, the per-address limits count through the same failover as everything else: while Redis
    // is down each node counts on its own, instead of the plugin's skipOnError letting every request through.
    ...(redis ? { store: countersStore(counters) } : {}),
    errorResponseBuilder: () => new HttpError(429, messages.auth.tooManyAttempts),
  });
}

/** @fastify/rate-limit's store interface over our counters: one namespace per route, as its own stores do. */
function countersStore(counters: Counters): FastifyRateLimitStoreCtor {
  class CountersStore implements FastifyRateLimitStore {
    constructor(private readonly prefix = 'rate:') {}
    // The plugin passes the window as a third argument its typings leave out.
    incr(
      key: string,
      done: (err: Error | null, res?: { current: number; ttl: number }) => void,
      ...rest: unknown[]
    ) {
      const window = Number(rest[0]);
      counters.hit(`${this.prefix}${key}`, window).then(
        (current) => done(null, { current, ttl: window }),
        (err: Error) => done(err),
      );
    }
    child(options: object) {
      const route = (options as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new CountersStore(`rate:${String(route.method)}${String(route.url ?? '')}-`);
    }
  }
  return CountersStore as unknown as FastifyRateLimitStoreCtor;
}

/** Route config for an auth-like route: login, register, password reset, resend. */
export const authLimit = (deps: AppDeps) => ({
  rateLimit: { max: deps.config.authRateLimit, timeWindow: deps.config.rateLimitWindowMs },
});

/** The registration form asks once per username step; a script enumerating accounts asks thousands of times. */
export const checkUsernameLimit = (deps: AppDeps) => ({
  rateLimit: { max: deps.config.checkUsernameRateLimit, timeWindow: deps.config.rateLimitWindowMs },
});

export const contactLimit = (deps: AppDeps) => ({
  rateLimit: {
    max: deps.config.contactRateLimit,
    timeWindow: deps.config.rateLimitWindowMs,
    errorResponseBuilder: () => new HttpError(429, messages.contact.tooMany),
  },
});

/**
 * Reports reach a human moderator: a flood from one address is abuse, not feedback. An outbox replay of a
 * report already taken (Idempotency-Key of `scope`) is not counted and gets its stored answer; telling one
 * needs the caller's guest_id, so this limit runs once the body is parsed.
 */
export const reportLimit = (deps: AppDeps, scope: string) => ({
  rateLimit: {
    max: deps.config.reportRateLimit,
    timeWindow: deps.config.rateLimitWindowMs,
    errorResponseBuilder: () => new HttpError(429, reportMessages.tooMany),
    hook: 'preHandler' as const,
    allowList: (request: FastifyRequest) => isReplay(deps, request, scope),
  },
});

/** Only the outbox sends these, and it never shows an answer: the words are for the API reference and logs. */
export const TRACKING_TOO_MANY = 'Too many clicks and views from this address. Please try again later.';

/**
 * Events, link clicks and profile views: counted once per viewer and window anyway
 * (server/tracking/counting.ts), and a flood from one address is refused before it costs a row each. An
 * outbox replay of a post already taken is not counted.
 */
export const trackingLimit = (deps: AppDeps, scope: string) => ({
  rateLimit: {
    max: deps.config.trackingRateLimit,
    timeWindow: deps.config.rateLimitWindowMs,
    errorResponseBuilder: () => new HttpError(429, TRACKING_TOO_MANY),
    hook: 'preHandler' as const,
    allowList: (request: FastifyRequest) => isReplay(deps, request, scope),
  },
});

/** Who tries to sign in: the email, the client's network (server/http/address.ts), and its device, if any. */
export interface LoginAttempt {
  email: string;
  network: string;
  /** The app's guest id: a device that signed in to this account before is known to it. */
  device: string | undefined;
}

const pairKey = (a: LoginAttempt) => `login-failures:${a.email}:${a.network}`;
const emailKey = (a: LoginAttempt) => `login-failures:${a.email}`;
const devicesKey = (a: LoginAttempt) => `login-devices:${a.email}`;
/** A device stays known to an account this long after its last sign-in. */
const DEVICE_MS = 90 * 86_400_000;

/**
 * Failed logins, counted two ways (issue 32: ten wrong passwords from anywhere used to lock the owner out).
 * Per email and network: LOGIN_FAILURE_LIMIT failures lock that network out of that account for the window,
 * and nobody else. Per email from everywhere: past LOGIN_GLOBAL_FAILURE_LIMIT (a distributed guesser), only
 * devices that signed in to the account before may still try: the guesser is refused, the owner is not.
 * With Redis configured and down, sign-in is refused (503) rather than counted per node: an outage must not
 * become a window for guessing. A success clears the network's count.
 */
export const loginAttempts = (app: FastifyInstance, deps: AppDeps) => ({
  /** Refuses a locked attempt; answers whether its device is known to the account (it goes first in line). */
  async check(attempt: LoginAttempt): Promise<boolean> {
    const [pair, all] = await Promise.all([
      app.counters.get(pairKey(attempt)),
      app.counters.get(emailKey(attempt)),
    ]);
    if (app.counters.degraded) throw new HttpError(503, messages.auth.busy, undefined, 5);
    if (pair >= deps.config.loginFailureLimit) throw new HttpError(429, messages.auth.tooManyAttempts);
    const known = attempt.device ? await app.counters.has(devicesKey(attempt), attempt.device) : false;
    if (all >= deps.config.loginGlobalFailureLimit && !known)
      throw new HttpError(429, messages.auth.tooManyAttempts);
    return known;
  },
  async failed(attempt: LoginAttempt) {
    const window = deps.config.rateLimitWindowMs;
    await Promise.all([
      app.counters.hit(pairKey(attempt), window),
      app.counters.hit(emailKey(attempt), window),
    ]);
  },
  async succeeded(attempt: LoginAttempt) {
    await app.counters.reset(pairKey(attempt));
    if (attempt.device) await app.counters.admit(devicesKey(attempt), attempt.device, 50, DEVICE_MS);
  },
});

/**
 * Likes and views of guests from one address. A guest id is the client's to make up, so a script could mint
 * one per like; a household or a carrier's NAT shows a handful of real devices (each keeps its id), a
 * script hundreds. Per address and window: at most `guestsPerAddress` distinct guest ids, and at most
 * `guestActionsPerAddress` guest likes and views in all. Users are counted by their account, not here;
 * a replay of an answered request (Idempotency-Key) counts for nothing.
 */
export async function limitGuestAction(
  request: FastifyRequest,
  deps: AppDeps,
  scope: string,
  guestId: string | undefined,
): Promise<void> {
  const { config } = deps;
  const counters = request.server.counters;
  if (request.headers['idempotency-key'] !== undefined && (await isReplay(deps, request, scope))) return;
  const address = limitKey(request.ip, config.ipv6LimitPrefix);
  if (
    guestId &&
    !(await counters.admit(`guests:${address}`, guestId, config.guestsPerAddress, config.guestWindowMs))
  )
    throw new HttpError(429, messages.server.tooManyGuests);
  if ((await counters.hit(`guest-actions:${address}`, config.guestWindowMs)) > config.guestActionsPerAddress)
    throw new HttpError(429, messages.server.tooManyGuests);
}
