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
  const flat = v.flatten<S>(result.issues);
  const errors: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(flat.nested ?? {}) as [string, string[] | undefined][]) {
    if (list?.length) errors[field] = list;
  }
  if (flat.root?.length) errors._ = flat.root;
  const first = Object.values(errors)[0]?.[0] ?? messages.server.validation;
  throw new HttpError(422, first, errors);
}
