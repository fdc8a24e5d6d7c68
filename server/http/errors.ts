import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '../../src/contract/messages';
import { DomainError, type DomainErrorKind } from '../util/domain-error';

/** An error whose message is meant for the user. Anything else becomes a generic 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** Seconds after which trying again makes sense (a 503 or 429): sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const notFound = (message: string = messages.server.notFound) => new HttpError(404, message);

/** Fastify's own client errors, mapped to plain sentences (their codes mean nothing to a user). */
const frameworkMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request length is wrong.',
};

const domainStatus: Record<DomainErrorKind, number> = {
  invalid: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
};

/** A service's refusal as the HTTP answer it stands for. */
export function httpErrorOf(error: DomainError): HttpError {
  const status = domainStatus[error.kind];
  const field = error.field ?? (status === 422 ? '_' : undefined);
  return new HttpError(status, error.message, field ? { [field]: [error.message] } : undefined);
}

/** Every error leaves as JSON `{message}` (422 adds `errors`); never a stack trace. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((thrown: FastifyError | HttpError | DomainError, request, reply) => {
    const error = thrown instanceof DomainError ? httpErrorOf(thrown) : thrown;
    if (error instanceof HttpError) {
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      return reply
        .status(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        frameworkMessages[error.code] ??
        (error.code === undefined || error.code.startsWith('FST_')
          ? messages.server.badRequest
          : error.message);
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: messages.server.internal });
  });
}
