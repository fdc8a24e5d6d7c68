// What a service (server/<resource>/) throws when a request cannot be done: the kind of failure and the
// words for the user, never an HTTP status. The HTTP layer (server/http/errors.ts) maps the kind to a status,
// so a service is as usable from the CLI as from a route.
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unauthenticated';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The payload field the message belongs to, for a 422's `errors`. */
    readonly field?: string,
  ) {
    super(message);
  }
}
