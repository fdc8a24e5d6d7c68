import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** No payload of this API nests deeper than a few levels; far deeper input only exists to exhaust the stack. */
const MAX_DEPTH = 32;

/**
 * What is wrong with a parsed body, query or params value, if anything: a NUL character anywhere, or
 * nesting deeper than MAX_DEPTH. Walks iteratively, so a hostile nesting cannot overflow the stack here;
 * `seen` guards against cycles (multipart field objects point back at the whole body), and streams and
 * byte buffers are not text.
 */
function inputProblem(root: unknown): 'nul' | 'depth' | undefined {
  const seen = new WeakSet<object>();
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'nul';
      continue;
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') continue;
    if (depth >= MAX_DEPTH) return 'depth';
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return 'nul';
      stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold NUL (PGlite tolerates it, PostgreSQL fails the statement), so a string with
 * one could only ever become a 500; no field of this API has a use for it. Deep nesting would overflow
 * the recursive validators. Both are refused before any handler runs.
 */
export function installInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.body, request.query, request.params]) {
      const problem = inputProblem(part);
      if (problem === 'nul') throw new HttpError(400, 'The request contains invalid characters.');
      if (problem === 'depth') throw new HttpError(400, 'The request is nested too deeply.');
    }
  });
}
