import type { FastifyInstance } from 'fastify';
import { isWellFormedText } from '../../src/contract/common';
import { messages } from '../../src/contract/messages';
import { HttpError } from './errors';

/** No payload of this API nests deeper than a few levels; far deeper input only exists to exhaust the stack. */
export const MAX_DEPTH = 32;

/** JSON bodies are small; uploads (multipart, tus) have their own limits on their own routes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

type Problem = { kind: 'nul' | 'depth' } | { kind: 'surrogate'; field: string };

/**
 * What is wrong with a parsed body, query or params value, if anything: a NUL character or a lone UTF-16
 * surrogate anywhere (names included), or nesting deeper than MAX_DEPTH. Walks iteratively, so a hostile
 * nesting cannot overflow the stack here; `seen` guards against cycles (multipart field objects point
 * back at the whole body), and streams and byte buffers are not text. A surrogate is reported with the
 * top-level field it sits in, so a form marks that field.
 */
function inputProblem(root: unknown): Problem | undefined {
  const seen = new WeakSet<object>();
  const stack: [unknown, number, string][] = [[root, 0, '_']];
  while (stack.length > 0) {
    const [value, depth, field] = stack.pop() as [unknown, number, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul' };
      if (!isWellFormedText(value)) return { kind: 'surrogate', field };
      continue;
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') continue;
    if (depth >= MAX_DEPTH) return { kind: 'depth' };
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return { kind: 'nul' };
      const top = depth === 0 && isWellFormedText(key) ? key : field;
      if (!isWellFormedText(key)) return { kind: 'surrogate', field: top };
      stack.push([item, depth + 1, top]);
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold NUL (PGlite tolerates it, PostgreSQL fails the statement), so a string with
 * one could only ever become a 500; no field of this API has a use for it. A lone surrogate cannot be
 * written as UTF-8: jsonb refuses its escape (a stored answer, a job's payload), text turns it into U+FFFD
 * behind the writer's back. Deep nesting would overflow the recursive validators. All are refused here,
 * before any handler runs, so no route writes half a request and fails on the rest (and the next route
 * added is covered without anyone remembering).
 */
export function installInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.body, request.query, request.params]) {
      const problem = inputProblem(part);
      if (problem?.kind === 'nul') throw new HttpError(400, 'The request contains invalid characters.');
      if (problem?.kind === 'depth') throw new HttpError(400, 'The request is nested too deeply.');
      if (problem?.kind === 'surrogate') {
        throw new HttpError(422, messages.server.invalidText, {
          [problem.field]: [messages.server.invalidText],
        });
      }
    }
  });
}
