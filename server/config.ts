import path from 'node:path';
import { VIDEO_MAX_BYTES } from '../src/contract/upload';

export interface Config {
  port: number;
  host: string;
  /** Everything the embedded setup writes: database, media, mail outbox. */
  dataDir: string;
  /** Absent: PGlite files under dataDir/pgdata. `memory://` keeps PGlite in memory (tests). */
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
  /** Built PWA served at /. */
  distDir: string;
  /** Seed demo content into an empty database. */
  seedDemo: boolean;
  /** How many demo videos to generate on first start. */
  demoVideoCount: number;
  /** Start pg-boss workers in this process (off for API nodes when workers run apart). */
  runWorkers: boolean;
  logLevel: string;
  /**
   * Peers whose X-Forwarded-For is believed (Fastify's `trustProxy`): `true`, `false`, or a comma list of
   * addresses / CIDRs. The client address keys rate limits and anonymous views, so trusting a peer that is
   * not a proxy lets any client pick its own address.
   */
  trustProxy: boolean | string;
  /** Trusted proxy header with the viewer's ISO country code (e.g. Cloudflare's CF-IPCountry). */
  geoCountryHeader: string;
  /** Trusted proxy header with the viewer's ISO 3166-2 region (e.g. "US-CA" or "CA"). */
  geoRegionHeader: string;
  /** Sender of every mail. */
  mailFrom: string;
  /** Where contact-form messages go. */
  operatorEmail: string;
  /** Requests per window per IP on login, register, forgot-password, resend-email and contact. */
  authRateLimit: number;
  contactRateLimit: number;
  reportRateLimit: number;
  rateLimitWindowMs: number;
  /** Failed logins per account (email) and window, from any address, before that account's logins pause. */
  loginFailureLimit: number;
  /** Username availability checks per address and window (registration asks once per step). */
  checkUsernameRateLimit: number;
  /** Distinct guest ids whose likes and views one address may send per window (guestWindowMs). */
  guestsPerAddress: number;
  /** Guest likes and views per address and window (guestWindowMs). */
  guestActionsPerAddress: number;
  guestWindowMs: number;
  /** redis://… : rate-limit counters shared by every API node; unset, each process counts in memory. */
  redisUrl: string | undefined;
  /** S3-compatible storage for media, originals and uploads in progress; unset, DATA_DIR on local disk. */
  s3: S3Config | undefined;
  /**
   * Base URL media links start with (a CDN, or the bucket's public URL), e.g. https://cdn.example.com/media;
   * unset, `/media` on this server, which reads from the storage.
   */
  mediaPublicUrl: string | undefined;
  /** Origins of ad images and videos (public/ads.json `src`), allowed by the Content-Security-Policy. */
  adOrigins: string[];
  /** The operator's ad placements, served as /ads.json in place of the build's copy of public/ads.json. */
  adsFile: string | undefined;
  /** Largest accepted video upload (tus and multipart); the spec's 2 GB by default. */
  uploadMaxBytes: number;
  /** A media job silent (no heartbeat) for this long is presumed dead and its video handed to a new job. */
  mediaStaleSeconds: number;
  /** How long a built discover page is answered from memory (ms): the once-a-minute of issue 17. */
  discoverCacheMs: number;
  /** How long page 1 of the home feed (per filter and place) is answered from memory (ms). */
  feedCacheMs: number;
  /**
   * CPU niceness of ffmpeg and ffprobe (0 to 19): transcodes yield to the API's requests. The higher renditions
   * of a video that already plays run at 19 unless this is 0 (server/media/ffmpeg.ts).
   */
  mediaNiceness: number;
  /**
   * When operators review uploads (server/admin): `before` keeps a new upload out of every list until one
   * approves it; `after` publishes it once it plays and still queues it for review.
   */
  uploadReview: 'before' | 'after';
  /** IPv6 clients are counted by this prefix for every per-address limit (a user holds a whole /64). */
  ipv6LimitPrefix: number;
  /** How long a socket may stay silent while the server waits on the client (server/http/timeouts.ts). */
  clientIdleTimeoutMs: number;
  /** Sockets one directly connected address may hold (0: no cap); trusted proxies are not capped. */
  maxConnectionsPerAddress: number;
  /** The whole of a request (headers and body) must arrive within this. */
  requestTimeoutMs: number;
  /**
   * How long a kept-alive connection may sit idle between requests: longer than the keep-alive of a proxy in
   * front (nginx upstream keepalive_timeout), so that the proxy closes first and never sends on a socket
   * being closed here.
   */
  keepAliveTimeoutMs: number;
  /** One viewer's clicks (events, link clicks, profile views) on one target count once in this window. */
  clickWindowMs: number;
  /** Event, link-click and profile-view posts per address and RATE_LIMIT_WINDOW_MS (replays aside). */
  trackingRateLimit: number;
  /** Verification-resend and password-reset mails one address may receive per hour. */
  mailsPerInbox: number;
  /** Failed logins of one email from all addresses before only devices it signed in from may try. */
  loginGlobalFailureLimit: number;
  /** Password hashes at once, and how many may wait; past that, a login answers 503 at once. */
  loginHashConcurrency: number;
  loginQueueDepth: number;
  /** Bearer token that opens GET /metrics on the main port; unset, it is not served there. */
  metricsToken: string | undefined;
  /** A port on 127.0.0.1 that serves /metrics without a token; unset, none. */
  metricsPort: number | undefined;
  /** After SIGTERM, how long this node keeps serving with /readyz at 503 before it closes its listener. */
  drainDelayMs: number;
}

export interface S3Config {
  bucket: string;
  /** Unset: AWS's own endpoint for the region. Set for MinIO, R2 or any S3-compatible server. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** bucket in the path (http://host/bucket/key), as MinIO and most stand-ins need. */
  forcePathStyle: boolean;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function s3Config(env: NodeJS.ProcessEnv): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: bool(env.S3_FORCE_PATH_STYLE, Boolean(env.S3_ENDPOINT)),
  };
}

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
};

/** Only loopback by default: a reverse proxy on the same machine works, a direct client cannot spoof. */
const trustProxy = (value: string | undefined): boolean | string => {
  const v = value?.trim() ?? '';
  if (v === '') return '127.0.0.1,::1';
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  // Fastify 5 ignores a bare hop count (it cannot tell a proxy from a client): refuse it rather than
  // silently trust nobody.
  if (/^\d+$/.test(v)) throw new Error(`TRUST_PROXY must be true, false or proxy addresses, got "${v}"`);
  return v;
};

const uploadReview = (value: string | undefined): 'before' | 'after' => {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'before') return 'before';
  if (v === 'after') return 'after';
  throw new Error(`UPLOAD_REVIEW must be before or after, got "${value}"`);
};

const bool = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined || value === '' ? fallback : !/^(0|false|no|off)$/i.test(value);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 8080, 'PORT');
  const host = env.HOST || '0.0.0.0';
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    ffmpegPath: env.FFMPEG_PATH || undefined,
    ffprobePath: env.FFPROBE_PATH || undefined,
    distDir: path.resolve(env.DIST_DIR || './dist'),
    seedDemo: bool(env.SEED_DEMO, true),
    demoVideoCount: int(env.DEMO_VIDEOS, 24, 'DEMO_VIDEOS'),
    runWorkers: bool(env.RUN_WORKERS, true),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: trustProxy(env.TRUST_PROXY),
    geoCountryHeader: (env.GEO_COUNTRY_HEADER || 'cf-ipcountry').toLowerCase(),
    geoRegionHeader: (env.GEO_REGION_HEADER || 'cf-region-code').toLowerCase(),
    mailFrom: env.MAIL_FROM || 'ShortCams <no-reply@shortcams.local>',
    operatorEmail: env.OPERATOR_EMAIL || 'operator@shortcams.local',
    authRateLimit: int(env.AUTH_RATE_LIMIT, 10, 'AUTH_RATE_LIMIT'),
    contactRateLimit: int(env.CONTACT_RATE_LIMIT, 5, 'CONTACT_RATE_LIMIT'),
    reportRateLimit: int(env.REPORT_RATE_LIMIT, 20, 'REPORT_RATE_LIMIT'),
    rateLimitWindowMs: int(env.RATE_LIMIT_WINDOW_MS, 15 * 60_000, 'RATE_LIMIT_WINDOW_MS'),
    loginFailureLimit: int(env.LOGIN_FAILURE_LIMIT, 10, 'LOGIN_FAILURE_LIMIT'),
    checkUsernameRateLimit: int(env.CHECK_USERNAME_RATE_LIMIT, 100, 'CHECK_USERNAME_RATE_LIMIT'),
    guestsPerAddress: int(env.GUESTS_PER_ADDRESS, 50, 'GUESTS_PER_ADDRESS'),
    guestActionsPerAddress: int(env.GUEST_ACTIONS_PER_ADDRESS, 2000, 'GUEST_ACTIONS_PER_ADDRESS'),
    guestWindowMs: int(env.GUEST_WINDOW_MS, 3600_000, 'GUEST_WINDOW_MS'),
    redisUrl: env.REDIS_URL || undefined,
    s3: s3Config(env),
    mediaPublicUrl: env.MEDIA_PUBLIC_URL ? env.MEDIA_PUBLIC_URL.replace(/\/+$/, '') : undefined,
    adOrigins: list(env.AD_ORIGINS),
    adsFile: env.ADS_FILE ? path.resolve(env.ADS_FILE) : undefined,
    uploadMaxBytes: int(env.UPLOAD_MAX_BYTES, VIDEO_MAX_BYTES, 'UPLOAD_MAX_BYTES'),
    mediaStaleSeconds: Math.max(3, int(env.MEDIA_STALE_SECONDS, 30, 'MEDIA_STALE_SECONDS')),
    discoverCacheMs: int(env.DISCOVER_CACHE_MS, 60_000, 'DISCOVER_CACHE_MS'),
    feedCacheMs: int(env.FEED_CACHE_MS, 5_000, 'FEED_CACHE_MS'),
    mediaNiceness: int(env.MEDIA_NICENESS, 10, 'MEDIA_NICENESS'),
    uploadReview: uploadReview(env.UPLOAD_REVIEW),
    ipv6LimitPrefix: Math.min(128, Math.max(16, int(env.IPV6_LIMIT_PREFIX, 64, 'IPV6_LIMIT_PREFIX'))),
    clientIdleTimeoutMs: int(env.CLIENT_IDLE_TIMEOUT_MS, 30_000, 'CLIENT_IDLE_TIMEOUT_MS'),
    maxConnectionsPerAddress: int(env.MAX_CONNECTIONS_PER_ADDRESS, 128, 'MAX_CONNECTIONS_PER_ADDRESS'),
    requestTimeoutMs: int(env.REQUEST_TIMEOUT_MS, 600_000, 'REQUEST_TIMEOUT_MS'),
    keepAliveTimeoutMs: int(env.KEEP_ALIVE_TIMEOUT_MS, 65_000, 'KEEP_ALIVE_TIMEOUT_MS'),
    clickWindowMs: int(env.CLICK_WINDOW_MS, 30 * 60_000, 'CLICK_WINDOW_MS'),
    trackingRateLimit: int(env.TRACKING_RATE_LIMIT, 300, 'TRACKING_RATE_LIMIT'),
    mailsPerInbox: int(env.MAILS_PER_INBOX, 5, 'MAILS_PER_INBOX'),
    loginGlobalFailureLimit: int(env.LOGIN_GLOBAL_FAILURE_LIMIT, 100, 'LOGIN_GLOBAL_FAILURE_LIMIT'),
    loginHashConcurrency: Math.max(1, int(env.LOGIN_HASH_CONCURRENCY, 2, 'LOGIN_HASH_CONCURRENCY')),
    loginQueueDepth: int(env.LOGIN_QUEUE_DEPTH, 32, 'LOGIN_QUEUE_DEPTH'),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? int(env.METRICS_PORT, 0, 'METRICS_PORT') : undefined,
    drainDelayMs: int(env.DRAIN_DELAY_MS, 0, 'DRAIN_DELAY_MS'),
  };
}
