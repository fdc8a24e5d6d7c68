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
  /** Largest accepted video upload (tus and multipart); the spec's 2 GB by default. */
  uploadMaxBytes: number;
  /** A media job silent (no heartbeat) for this long is presumed dead and its video handed to a new job. */
  mediaStaleSeconds: number;
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
    uploadMaxBytes: int(env.UPLOAD_MAX_BYTES, VIDEO_MAX_BYTES, 'UPLOAD_MAX_BYTES'),
    mediaStaleSeconds: Math.max(3, int(env.MEDIA_STALE_SECONDS, 30, 'MEDIA_STALE_SECONDS')),
  };
}
