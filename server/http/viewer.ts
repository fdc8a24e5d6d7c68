// Who is asking: a logged-in user (bearer token), a guest (guest_id), or nobody; and from where (country
// and region from trusted proxy headers, for geo-blocking). Resolved once per request, lazily.
import type { FastifyRequest } from 'fastify';
import { messages } from '../../src/contract/messages';
import { socialMessages } from '../../src/contract/social';
import { type UserRow, userForAccessToken } from '../auth/tokens';
import type { AppDeps } from '../deps';
import { HttpError } from './errors';
import { fromTrustedProxy } from './trust';

export interface Viewer {
  user: UserRow | undefined;
  /** Client-generated id of a guest; ignored once a user is known. */
  guestId: string | undefined;
  /** Stable key for per-viewer rows (likes, views): `u:{id}` or `g:{guestId}`. */
  key: string | undefined;
  /** ISO 3166-1 alpha-2, upper case, when the proxy told us. */
  country: string | undefined;
  /** ISO 3166-2 subdivision code without the country prefix (e.g. "CA" for US-CA), upper case. */
  region: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewerPromise?: Promise<Viewer>;
  }
}

const GUEST_ID = /^[A-Za-z0-9-]{8,64}$/;

function guestIdOf(request: FastifyRequest): string | undefined {
  const fromBody = (request.body as { guest_id?: unknown } | undefined)?.guest_id;
  const fromQuery = (request.query as { guest_id?: unknown } | undefined)?.guest_id;
  const candidate =
    typeof fromBody === 'string' ? fromBody : typeof fromQuery === 'string' ? fromQuery : undefined;
  return candidate && GUEST_ID.test(candidate) ? candidate : undefined;
}

export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}

/**
 * The viewer of this request. An unknown or expired token on a route that does not require login is
 * treated as a guest: a feed must never break because a phone kept an old token.
 */
export function viewerOf(request: FastifyRequest, deps: AppDeps): Promise<Viewer> {
  request.viewerPromise ??= (async () => {
    const token = bearerOf(request);
    const user = token ? await userForAccessToken(deps.database.db, token) : undefined;
    const guestId = user ? undefined : guestIdOf(request);
    return {
      user,
      guestId,
      key: user ? `u:${user.id}` : guestId ? `g:${guestId}` : undefined,
      ...geoOf(request, deps),
    };
  })();
  return request.viewerPromise;
}

/** Where the viewer is, from trusted proxy headers only; no database read (discover needs nothing else). */
export function geoOf(
  request: FastifyRequest,
  deps: Pick<AppDeps, 'config'>,
): Pick<Viewer, 'country' | 'region'> {
  // Geo headers are a proxy's word, like X-Forwarded-For: from anyone else they are the client's choice.
  const trusted = fromTrustedProxy(request.raw, deps.config.trustProxy);
  const country = trusted ? header(request, deps.config.geoCountryHeader)?.toUpperCase() : undefined;
  const region = trusted
    ? header(request, deps.config.geoRegionHeader)
        ?.toUpperCase()
        .replace(/^[A-Z]{2}-/, '')
    : undefined;
  return {
    country: country && /^[A-Z]{2}$/.test(country) ? country : undefined,
    region: region && /^[A-Z0-9]{1,3}$/.test(region) ? region : undefined,
  };
}

/**
 * Whom a per-viewer row (a view, a stored Idempotency-Key answer) belongs to: the viewer key, else the client
 * address, so that a client sending no id at all is still told apart from others.
 */
export const callerKey = (viewer: Viewer, request: FastifyRequest): string =>
  viewer.key ?? `ip:${request.ip}`;

/** The logged-in user, or 401 (missing, unknown, revoked or expired token). */
export async function requireUser(request: FastifyRequest, deps: AppDeps): Promise<UserRow> {
  const { user } = await viewerOf(request, deps);
  if (!user) throw new HttpError(401, messages.server.unauthenticated);
  return user;
}

/**
 * A viewer a per-viewer row can be attributed to (a like, a click): the bearer's user, else a well-formed
 * guest_id. A bearer that no longer works is a 401, not a missing guest id: the client's session ended,
 * and its outbox sends the post again as the device's guest.
 */
export async function identifiedViewer(
  request: FastifyRequest,
  deps: AppDeps,
): Promise<Viewer & { key: string }> {
  const viewer = await viewerOf(request, deps);
  if (viewer.key) return { ...viewer, key: viewer.key };
  if (bearerOf(request)) throw new HttpError(401, messages.server.unauthenticated);
  throw new HttpError(422, socialMessages.missingViewer, { guest_id: [socialMessages.missingViewer] });
}
