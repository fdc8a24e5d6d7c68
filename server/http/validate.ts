import * as v from 'valibot';
import { messages } from '../../src/contract/messages';
import { HttpError } from './errors';

/**
 * Validates `input` with a contract schema; failures become 422 `{message, errors: {field: [messages]}}`
 * in the Laravel shape the client reads. `message` is the first field message, as Laravel does.
 */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => ({ ...issue, message: missingKeyMessage(schema, issue) }));
  const flat = v.flatten<S>(issues as typeof result.issues);
  const errors: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(flat.nested ?? {}) as [string, string[] | undefined][]) {
    // Two checks of one field may share a message (e.g. a date that is both malformed and impossible).
    if (list?.length) errors[field] = [...new Set(list)];
  }
  if (flat.root?.length) errors._ = flat.root;
  const first = Object.values(errors)[0]?.[0] ?? messages.server.validation;
  throw new HttpError(422, first, errors);
}

type Described = { message?: unknown; entries?: Record<string, Described> };

/**
 * Valibot words a missing key as "Invalid key: Expected "x" but received undefined", which means nothing
 * to a user. Use the field's own contract message instead (e.g. 'Missing video id.'), or a plain sentence.
 */
function missingKeyMessage(schema: v.GenericSchema, issue: v.BaseIssue<unknown>): string {
  if (issue.type !== 'object' || issue.received !== 'undefined' || !issue.path?.length) return issue.message;
  let node: Described | undefined = schema as Described;
  for (const item of issue.path) node = node?.entries?.[String(item.key)];
  const own = node?.message;
  if (typeof own === 'string') return own;
  return `The ${String(issue.path[issue.path.length - 1]?.key)} field is required.`;
}
