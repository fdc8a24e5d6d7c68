/**
 * Every failed call, whatever went wrong: status 0 means the request never got an answer. `fromServer` says
 * whether `message` is the server's own words (a JSON error body) or this client's stand-in for an answer
 * it could not read; src/api/errors.ts decides from it which text the viewer gets. A module of its own rather
 * than the client's (src/api/http.ts re-exports it), so that reconnect.ts, which the client reports to, tells
 * failures apart without importing the client back; and not in errors.ts, which travels in the `kit` chunk
 * (vite.config.ts) while the client is in the entry's `shell`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors?: Record<string, string[]>;
  readonly fromServer: boolean;

  constructor(
    status: number,
    message: string,
    errors?: Record<string, string[]>,
    options?: ErrorOptions & { fromServer?: boolean },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.fromServer = options?.fromServer ?? false;
    if (errors) this.errors = errors;
  }
}
