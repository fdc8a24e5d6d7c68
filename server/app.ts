import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import type { AppDeps } from './deps';
import { installCompression } from './http/compress';
import { installErrorHandler } from './http/errors';
import { installInputGuard, JSON_BODY_LIMIT } from './http/input';
import { installMetrics } from './http/metrics';
import { installRateLimit } from './http/rate-limit';
import { inlineStyleHashes, installSecurityHeaders } from './http/security';
import { installStatic } from './http/static';
import { installClientTimeouts } from './http/timeouts';
import adminRoutes from './routes/admin';
import authRoutes from './routes/auth';
import contactRoutes from './routes/contact';
import discoverRoutes, { searchRoutes } from './routes/discover';
import docsRoutes, { DOCS_STYLE } from './routes/docs';
import feedRoutes from './routes/feeds';
import followRoutes from './routes/follows';
import geoRoutes from './routes/geo';
import healthRoutes from './routes/health';
import interactionRoutes from './routes/interactions';
import pageRoutes from './routes/pages';
import profileRoutes from './routes/profile';
import statsRoutes from './routes/stats';
import studioRoutes from './routes/studio';
import trackingRoutes from './routes/tracking';
import uploadRoutes from './routes/uploads';
import userRoutes from './routes/users';
import verificationRoutes from './routes/verification';
import videoRoutes from './routes/videos';

const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
type CompilerFactory = (...args: unknown[]) => unknown;
const lazily = (pkg: string): CompilerFactory => {
  let factory: CompilerFactory | undefined;
  return (...args) => {
    factory ??= (fastifyRequire(pkg) as () => CompilerFactory)();
    return factory(...args);
  };
};
const lazySchemaCompilers = {
  buildValidator: lazily('@fastify/ajv-compiler'),
  buildSerializer: lazily('@fastify/fast-json-stringify-compiler'),
} as never;

/** Builds the whole HTTP app without listening: main.ts listens, tests call `app.inject()`. */
export async function buildApp(
  deps: AppDeps,
  /** `onRoute` sees every route as it is registered (the fuzz test covers routes added by any module). */
  opts: { logger?: boolean; onRoute?: (route: RouteOptions) => void } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : { level: deps.config.logLevel },
    bodyLimit: JSON_BODY_LIMIT,
    // One line per request would drown the log on a video app (every HLS segment is a request).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // The whole request (headers and body) within 10 minutes, the headers within 15 s: a client that drips
    // bytes cannot hold a socket for good (the idle timeout of server/http/timeouts.ts catches silence).
    // Uploads go by tus chunks; a multipart upload slower than this is a client for tus.
    requestTimeout: deps.config.requestTimeoutMs,
    http: { headersTimeout: 15_000 },
    keepAliveTimeout: deps.config.keepAliveTimeoutMs,
    // Routes check their input with valibot (src/contract), not JSON Schema: Ajv and fast-json-stringify,
    // which Fastify would load here for nothing (a fifth of a start), load only if a route ever asks.
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  installClientTimeouts(app, deps.config);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  installSecurityHeaders(app, deps.config, inlineStyleHashes(`<style>${DOCS_STYLE}</style>`));
  installErrorHandler(app);
  installCompression(app);
  await installRateLimit(app, deps.config);
  app.decorate('draining', false);
  // While draining, every answer closes its connection: a proxy keeps none of ours idle, so when the
  // listener closes, its next request to this node is a refused connect, which it passes to another node
  // (even a POST: nothing was sent), never a request cut on a connection closing under it.
  app.addHook('onSend', async (_request, reply) => {
    if (app.draining) reply.header('Connection', 'close');
  });
  await installMetrics(app, deps);
  installInputGuard(app);
  // First: it builds the reference from the `config.doc` of every route registered after it.
  await docsRoutes(app, deps);
  await healthRoutes(app, deps);
  await pageRoutes(app, deps);
  await userRoutes(app, deps);
  await videoRoutes(app, deps);
  await uploadRoutes(app, deps);
  await interactionRoutes(app, deps);
  await discoverRoutes(app, deps);
  await searchRoutes(app, deps);
  await feedRoutes(app, deps);
  await authRoutes(app, deps);
  await contactRoutes(app, deps);
  await profileRoutes(app, deps);
  await verificationRoutes(app, deps);
  await followRoutes(app, deps);
  await studioRoutes(app, deps);
  await geoRoutes(app, deps);
  await trackingRoutes(app, deps);
  await statsRoutes(app, deps);
  await adminRoutes(app, deps);
  await installStatic(app, {
    storage: deps.storage,
    distDir: deps.config.distDir,
    adsFile: deps.config.adsFile,
  });
  return app;
}
