// The one place where a failure becomes the text a viewer reads. Screens say which words the spec gives them
// for each case; the order in which the cases are tried is the same everywhere:
//   no answer at all → `network`; a status the screen names → that; any other answer → `answered` when the
//   screen shapes its own (verification's '{status}: {message}'), else the server's own message, else
//   `fallback`. Anything that is not an API error (a bug, a full disk) → its own text or `fallback`.
import { networkMessage, serverMessages, storageFullMessage } from '../contract/common-messages';
import { ApiError } from './apiError';

export interface ErrorTexts {
  /** The request got no answer (offline, timeout). Default 'Network error.'. */
  network?: string;
  /** Words for given statuses, e.g. `{ 429: 'You sent too many messages. Please try again later.' }`. */
  status?: Partial<Record<number, string>>;
  /** Shapes the text of any other answer from the server's status and message (undefined: none it wrote). */
  answered?: (status: number, serverMessage: string | undefined) => string;
  /** `false`: never show the server's own words, only `fallback` (spec texts that replace them). */
  serverMessage?: boolean;
  /** Last resort. Default 'Something went wrong, try again later.'. */
  fallback?: string;
}

/** An IndexedDB or file-system write refused for lack of space, in any browser's wording. */
export function isQuotaError(error: unknown): boolean {
  if (!(error instanceof Error) && !(error instanceof DOMException)) return false;
  const { name } = error as { name: string };
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/** A caller's own abort (a screen closed, a newer request replaced this one): nothing to tell anyone. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function errorText(error: unknown, texts: ErrorTexts = {}): string {
  const fallback = texts.fallback ?? serverMessages.internal;
  if (error instanceof ApiError) {
    if (error.status === 0) return texts.network ?? networkMessage;
    const byStatus = texts.status?.[error.status];
    if (byStatus !== undefined) return byStatus;
    const own = error.fromServer ? error.message : undefined;
    if (texts.answered) return texts.answered(error.status, own);
    if (texts.serverMessage !== false && own) return own;
    return fallback;
  }
  if (isQuotaError(error)) return storageFullMessage;
  return fallback;
}

/** The first message of a 422's `errors` object (spec §7: "422 uses first of errors"). */
export function firstFieldError(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.errors) return undefined;
  for (const list of Object.values(error.errors)) if (list[0]) return list[0];
  return undefined;
}
