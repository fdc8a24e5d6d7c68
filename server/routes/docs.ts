// API reference at /v1/docs: OpenAPI 3.1 built from the `config.doc` every route declares where it is
// registered (server/http/doc.ts). The routes are collected as they are registered, so this module is
// installed before every other route module.
import type { FastifyInstance } from 'fastify';
import { errorResponseSchema } from '../../src/contract';
import type { AppDeps } from '../deps';
import { type DocResponse, jsonSchema, type Operation } from '../http/doc';
import { JSON_BODY_LIMIT, MAX_DEPTH } from '../http/input';

export interface DocumentedRoute {
  /** Lower case, as OpenAPI spells it. */
  method: string;
  /** OpenAPI form: `/v1/users/{id}`. */
  path: string;
  op: Operation;
}

/**
 * Names that read better than the rule's. Client generators turn operationIds into function names, so an
 * id is API: add an entry only for a new call, never rename one.
 */
const OPERATION_IDS: Record<string, string> = {
  'get /v1/docs': 'getDocsPage',
  'get /v1/docs/openapi.json': 'getOpenApiDocument',
  'get /v1/docs/viewer.js': 'getDocsViewerScript',
  'get /v1/videos': 'getVideoFeed',
  'get /v1/videos/start/{id}': 'getVideoFeedStartingAt',
  // A GET because the spec has it so; what it does is delete.
  'get /v1/videos/{id}/delete': 'deleteVideo',
  'options /v1/uploads': 'getUploadCapabilities',
  'options /v1/uploads/{id}': 'getUploadCapabilitiesById',
  'post /v1/uploads': 'createUpload',
  'head /v1/uploads/{id}': 'getUploadOffset',
  'patch /v1/uploads/{id}': 'appendUploadBytes',
  'delete /v1/uploads/{id}': 'deleteUpload',
  'get /v1/profile/get-geo-blocked-countries': 'getGeoBlockedCountries',
  'post /v1/profile/add-geo-blocked-country': 'addGeoBlockedCountry',
  'post /v1/profile/delete-geo-blocked-country': 'deleteGeoBlockedCountry',
};

const pascal = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The method and the path without its version, `post /v1/video-rating/rate` → `postVideoRatingRate`,
 * `get /v1/users/{id}/videos` → `getUsersByIdVideos`: derived from what a client already depends on, so an
 * id only changes when the call does, and a /v2 of a call keeps its name.
 */
export function operationIdOf(method: string, path: string): string {
  const named = OPERATION_IDS[`${method} ${path}`];
  if (named) return named;
  const segments = path.replace(/^\/v\d+\//, '').split('/');
  return (
    method + segments.map((s) => (s.startsWith('{') ? `By${pascal(s.slice(1, -1))}` : pascal(s))).join('')
  );
}

const failure = (description: string): DocResponse => ({ description, schema: errorResponseSchema });

/**
 * The answers of checks that run before any handler, whatever the route's entry says: the input guard
 * (server/http/input.ts) reads the query, path and body of every request, and Fastify parses and limits the
 * body of every POST, PUT and PATCH. A route's own wording of a status comes first.
 */
function commonResponses(method: string): Record<number, DocResponse> {
  const nul = 'A NUL character anywhere in the request.';
  if (!['post', 'put', 'patch'].includes(method)) return { 400: failure(nul) };
  return {
    400: failure(`${nul} A body that is not valid JSON, or nests deeper than ${MAX_DEPTH} levels.`),
    413: failure(`A JSON body over ${JSON_BODY_LIMIT / 1024 / 1024} MB.`),
    422: failure('Text with a lone UTF-16 surrogate, on its field.'),
  };
}

/** Every answer with the error body points at one schema, so a generated client has one error type. */
const ERROR_REF = { $ref: '#/components/schemas/Error' };

export function openApiDocument(publicUrl: string, routes: DocumentedRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const { method, path, op } of routes) {
    const operationId = operationIdOf(method, path);
    if (operationIds.has(operationId))
      throw new Error(`operationId ${operationId} of ${method} ${path} is taken`);
    operationIds.add(operationId);
    const common = commonResponses(method);
    const responses: Record<number, DocResponse> = { ...common };
    for (const [status, r] of Object.entries(op.responses)) {
      const shared = common[Number(status)];
      responses[Number(status)] = shared
        ? { ...r, description: `${r.description} ${shared.description}` }
        : r;
    }
    const parameters: unknown[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (op.query) {
      const query = jsonSchema(op.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
      }
    }
    for (const [name, description] of Object.entries(op.headers ?? {})) {
      parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
    }
    // A call may take JSON or a form (POST /v1/profile): one request body with both media types.
    const content = {
      ...(op.body ? { 'application/json': { schema: jsonSchema(op.body) } } : {}),
      ...(op.rawBody ? { [op.rawBody.contentType]: { schema: op.rawBody.schema } } : {}),
    };
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[method] = {
      operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      // Public calls say so: `[]` is "no credentials", not "not stated".
      security: { required: [{ bearer: [] }], optional: [{}, { bearer: [] }], none: [] }[op.auth ?? 'none'],
      ...(parameters.length ? { parameters } : {}),
      // JSON bodies are optional as such (an empty body meets the same validation as missing fields).
      ...(op.body || op.rawBody ? { requestBody: { required: !op.body, content } } : {}),
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, r]) => [
          status,
          {
            description: r.description,
            ...(r.schema
              ? {
                  content: {
                    'application/json': {
                      schema: r.schema === errorResponseSchema ? ERROR_REF : jsonSchema(r.schema),
                    },
                  },
                }
              : {}),
          },
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ShortCams API',
      version: '1',
      description:
        'Lists are `{data, links: {next}}` (`next` null on the last page); validation failures are 422 ' +
        '`{message, errors: {field: [messages]}}`; every other failure is `{message}`. The viewer’s country ' +
        'and region come from trusted proxy headers; geo-blocked creators are left out of lists and 404 ' +
        'when read directly. Strings with NUL characters or bodies nested deeper than 32 levels are 400; text ' +
        'with a lone UTF-16 surrogate (half of a pair, which no storage can hold) is 422 on its field.',
    },
    servers: [{ url: publicUrl }],
    components: {
      schemas: { Error: jsonSchema(errorResponseSchema) },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The `access_token` a login answers (`POST /v1/login`, `/v1/login/token`, or an operator’s `/v1/admin/sign-in`).',
        },
      },
    },
    paths,
  };
}

/** The reference page's only style, allowed by hash in the Content-Security-Policy (server/http/security.ts). */
export const DOCS_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:700;text-transform:uppercase;margin-right:.5em}`;

// The page's script is a file of its own: the Content-Security-Policy allows no inline script.
const viewerJs = `fetch('/v1/docs/openapi.json').then(r=>r.json()).then(doc=>{
  const el=document.getElementById('ops');el.textContent='';
  const p=document.createElement('p');p.textContent=doc.info.description;el.append(p);
  for(const [path,ops] of Object.entries(doc.paths))for(const [method,op] of Object.entries(ops)){
    const s=document.createElement('section');const h=document.createElement('h3');
    const m=document.createElement('span');m.className='m';m.textContent=method;h.append(m,path);
    const d=document.createElement('p');d.textContent=op.summary+(op.description?' — '+op.description:'');
    const c=document.createElement('p');c.textContent='Answers: '+Object.entries(op.responses).map(([k,v])=>k+' '+v.description).join(' · ');
    s.append(h,d,c);el.append(s);
  }
});
`;

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>ShortCams API</title>
<style>${DOCS_STYLE}</style>
</head><body><h1>ShortCams API</h1><p>Machine-readable: <a href="/v1/docs/openapi.json">openapi.json</a></p><div id="ops">Loading…</div>
<script src="/v1/docs/viewer.js"></script></body></html>`;

export default async function docsRoutes(app: FastifyInstance, deps: AppDeps) {
  const routes: DocumentedRoute[] = [];
  const gets = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'GET') gets.add(route.url);
      // Fastify answers HEAD for every GET itself, with the GET's options: no call of its own.
      if (method === 'HEAD' && gets.has(route.url)) continue;
      const op = route.config?.doc;
      if (op) routes.push({ method: method.toLowerCase(), path: route.url.replace(/:(\w+)/g, '{$1}'), op });
    }
  });
  // Built once every route is registered: the document only changes with the code.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.addHook('onReady', async () => {
    document = openApiDocument(deps.config.publicUrl, routes);
  });
  const cached = { 200: { description: 'Cacheable for 5 minutes.' } };

  app.get(
    '/v1/docs/openapi.json',
    { config: { doc: { summary: 'This reference as OpenAPI 3.1 JSON', responses: cached } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return document;
    },
  );
  app.get(
    '/v1/docs/viewer.js',
    { config: { doc: { summary: 'The script of the HTML reference page', responses: cached } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return reply.type('text/javascript; charset=utf-8').send(viewerJs);
    },
  );
  app.get(
    '/v1/docs',
    { config: { doc: { summary: 'This reference as a small HTML page', responses: cached } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );
}
