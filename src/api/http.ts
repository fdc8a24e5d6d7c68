import * as v from 'valibot';
import { errorResponseSchema, messages } from '../contract';

/** Every failed call, whatever went wrong: status 0 means the request never got an answer. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors?: Record<string, string[]>;

  constructor(status: number, message: string, errors?: Record<string, string[]>, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    if (errors) this.errors = errors;
  }
}

export const NETWORK_ERROR_MESSAGE = 'Network error.';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  method?: Method;
  /** Plain data is sent as JSON; FormData goes as multipart, untouched. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The single place where identity joins a request. Later: the bearer token for logged-in users, the
 * guest_id for guests (spec §6: calls carry one or the other, never both).
 */
function identityHeaders(): Record<string, string> {
  return {};
}

export function apiFetch<S extends v.GenericSchema>(
  path: string,
  options: RequestOptions & { schema: S },
): Promise<v.InferOutput<S>>;
export function apiFetch(path: string, options?: RequestOptions): Promise<unknown>;
export async function apiFetch(
  path: string,
  { method = 'GET', body, signal, schema }: RequestOptions & { schema?: v.GenericSchema } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json', ...identityHeaders() };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, signal, credentials: 'same-origin' });
  } catch (error) {
    // An abort is the caller's own decision, not a failure to report.
    if (signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, undefined, { cause: error });
  }

  const json = await readJson(response);
  if (!response.ok) {
    const parsed = v.safeParse(errorResponseSchema, json);
    if (parsed.success) throw new ApiError(response.status, parsed.output.message, parsed.output.errors);
    throw new ApiError(response.status, messages.server.internal);
  }
  if (!schema) return json;
  try {
    return v.parse(schema, json);
  } catch (error) {
    // A 2xx that does not match the contract is a server bug; callers treat it like any other failure.
    throw new ApiError(response.status, messages.server.internal, undefined, { cause: error });
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
