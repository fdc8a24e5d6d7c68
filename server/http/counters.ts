// Counters with a time window, for the limits @fastify/rate-limit cannot express: failed logins per account
// (only failures count, a success clears them) and the distinct guest ids one address sends. In memory for
// one process; in Redis when REDIS_URL is set, so that every API node sees the same counts.
import type { Redis } from 'ioredis';

export interface Counters {
  /** The count at `key`; 0 when it never counted or its window ended. */
  get(key: string): Promise<number>;
  /** Adds one to `key`, whose window starts at its first hit; returns the new count. */
  hit(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
  /**
   * Adds `member` to the set at `key` unless the set already holds `limit` others (the window starts with
   * the set). True when `member` is (now) in the set.
   */
  admit(key: string, member: string, limit: number, windowMs: number): Promise<boolean>;
  /** Whether `member` is in the set at `key` (admitted and not expired). */
  has(key: string, member: string): Promise<boolean>;
  /** True while the shared store is down and this node counts on its own (FailoverCounters). */
  readonly degraded?: boolean;
}

export class MemoryCounters implements Counters {
  private readonly counts = new Map<string, { n: number; until: number }>();
  private readonly sets = new Map<string, { members: Set<string>; until: number }>();
  private nextSweep = 0;

  /** Drops ended windows now and then, so that a flood of keys cannot grow the maps forever. */
  private sweep(now: number) {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [key, entry] of this.counts) if (entry.until <= now) this.counts.delete(key);
    for (const [key, entry] of this.sets) if (entry.until <= now) this.sets.delete(key);
  }

  async get(key: string) {
    const entry = this.counts.get(key);
    return entry && entry.until > Date.now() ? entry.n : 0;
  }

  async hit(key: string, windowMs: number) {
    const now = Date.now();
    this.sweep(now);
    const entry = this.counts.get(key);
    if (!entry || entry.until <= now) {
      this.counts.set(key, { n: 1, until: now + windowMs });
      return 1;
    }
    entry.n += 1;
    return entry.n;
  }

  async reset(key: string) {
    this.counts.delete(key);
  }

  async admit(key: string, member: string, limit: number, windowMs: number) {
    const now = Date.now();
    this.sweep(now);
    let entry = this.sets.get(key);
    if (!entry || entry.until <= now) {
      entry = { members: new Set(), until: now + windowMs };
      this.sets.set(key, entry);
    }
    if (entry.members.has(member)) return true;
    if (entry.members.size >= limit) return false;
    entry.members.add(member);
    return true;
  }

  async has(key: string, member: string) {
    const entry = this.sets.get(key);
    return entry !== undefined && entry.until > Date.now() && entry.members.has(member);
  }
}

// One round trip each, atomic on the Redis server: two API nodes cannot both take the last place.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
const ADMIT = `if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
local size = redis.call('SCARD', KEYS[1])
if size >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
if size == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`;

export class RedisCounters implements Counters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'shortcams:counter:',
  ) {}

  async get(key: string) {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async hit(key: string, windowMs: number) {
    return Number(await this.redis.eval(HIT, 1, this.prefix + key, windowMs));
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async admit(key: string, member: string, limit: number, windowMs: number) {
    return Number(await this.redis.eval(ADMIT, 1, `${this.prefix}set:${key}`, member, limit, windowMs)) === 1;
  }

  async has(key: string, member: string) {
    return (await this.redis.sismember(`${this.prefix}set:${key}`, member)) === 1;
  }
}

const RETRY_REDIS_MS = 5000;

/**
 * Redis first; while it fails (a restart, a network split), this node counts in its own memory instead.
 * A login must not answer 500 because a counter store is down, and failing open would lift the per-account
 * guess limit exactly when nobody watches: per-node counts keep a limit in place until Redis is back.
 */
export class FailoverCounters implements Counters {
  private failing = false;
  /** While Redis is down, requests skip it until then instead of each waiting for it to fail again. */
  private retryAt = 0;

  constructor(
    private readonly primary: Counters,
    private readonly fallback: Counters,
    private readonly log: { warn(obj: object, msg: string): void; info(msg: string): void },
  ) {}

  private async run<T>(op: (counters: Counters) => Promise<T>): Promise<T> {
    if (this.failing && Date.now() < this.retryAt) return op(this.fallback);
    try {
      const result = await op(this.primary);
      if (this.failing) {
        this.failing = false;
        this.log.info('counters: Redis answers again');
      }
      return result;
    } catch (err) {
      // One line per outage, not one per request.
      if (!this.failing)
        this.log.warn({ err }, 'counters: Redis failed, counting in this node until it is back');
      this.failing = true;
      this.retryAt = Date.now() + RETRY_REDIS_MS;
      return op(this.fallback);
    }
  }

  get(key: string) {
    return this.run((c) => c.get(key));
  }

  hit(key: string, windowMs: number) {
    return this.run((c) => c.hit(key, windowMs));
  }

  reset(key: string) {
    return this.run((c) => c.reset(key));
  }

  admit(key: string, member: string, limit: number, windowMs: number) {
    return this.run((c) => c.admit(key, member, limit, windowMs));
  }

  has(key: string, member: string) {
    return this.run((c) => c.has(key, member));
  }

  get degraded() {
    return this.failing;
  }
}
