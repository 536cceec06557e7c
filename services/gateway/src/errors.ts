import { status as Status } from '@grpc/grpc-js';
import {
  decodeGrpcError,
  grpcStatusByKind,
  invalidArgument,
  isDomainError,
  type DomainError,
} from '@eligo/runtime';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { httpStatusOf } from './error-statuses';

/** The spec's non-verification error bodies: ER {errorIds, systemErrorMessage} or SEM {systemErrorMessage}. */
import type { ErrorBody } from './endpoints/errors';

export type { ErrorBody };

/**
 * A request the contract refuses: 400 invalidRequest, the message naming what is wrong (ER, or REST v2's step
 * error on the step endpoints).
 */
export const invalidRequest = (message: string): DomainError =>
  invalidArgument(message, { errorIds: ['invalidRequest'] });
export type ErrorBodyShape = 'ER' | 'SEM';

export interface HttpError {
  status: number;
  body: ErrorBody;
}

const GENERIC = 'Internal server error';

/**
 * A failure the gateway itself answers with a status of its own (411 and 413 for an upload's length, 502 when
 * the object store refuses a file): HTTP is the gateway's business, so these never pass through a service.
 */
export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly shape: ErrorBodyShape = 'SEM',
    readonly errorIds: readonly string[] = [],
  ) {
    super(message);
    this.name = 'RestError';
  }
}

/**
 * An endpoint whose spec answers every client error with SEM {systemErrorMessage}, also when the service named
 * errorIds (the program organization search answers an unknown program so): wrap the failure in this.
 */
export class SemBodyError extends Error {
  constructor(readonly failure: unknown) {
    super('an error answered with a SEM body');
    this.name = 'SemBodyError';
  }
}

/** Rethrows a route's failure so that it is answered with a SEM body (see SemBodyError). */
export function semBody(err: unknown): never {
  throw new SemBodyError(err);
}

/**
 * The one place that turns an error (a gRPC status from a service, or a domain error raised in the gateway)
 * into an HTTP status and body: the status from the table in error-statuses.ts, an ER body when the failure
 * names errorIds, SEM otherwise. Unknown errors become 500 with a generic message; their detail is logged once.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof RestError)
    return { status: err.status, body: bodyOf(err.shape, err.errorIds, err.message) };
  if (err instanceof SemBodyError) {
    const mapped = toHttpError(err.failure);
    return mapped.status >= 500
      ? mapped
      : { status: mapped.status, body: { systemErrorMessage: mapped.body.systemErrorMessage } };
  }
  let code: Status;
  let message: string;
  let errorIds: readonly string[];
  let reason: string | undefined;
  if (isDomainError(err)) {
    code = grpcStatusByKind[err.kind];
    ({ message, errorIds, reason } = err);
  } else if (isGrpcError(err)) {
    const d = decodeGrpcError(err);
    code = d.code;
    ({ message, errorIds, reason } = d);
  } else {
    return { status: 500, body: { errorIds: ['internalServerError'], systemErrorMessage: GENERIC } };
  }
  const status = httpStatusOf(code, errorIds, reason);
  if (status >= 500 && code !== Status.UNAVAILABLE && code !== Status.DEADLINE_EXCEEDED) {
    return { status, body: { errorIds: ['internalServerError'], systemErrorMessage: GENERIC } };
  }
  return {
    status,
    body: bodyOf(errorIds.length > 0 ? 'ER' : 'SEM', errorIds, message || defaultMessage(status)),
  };
}

function bodyOf(shape: ErrorBodyShape, errorIds: readonly string[], message: string): ErrorBody {
  return shape === 'SEM'
    ? { systemErrorMessage: message }
    : { errorIds: [...errorIds], systemErrorMessage: message };
}

function isGrpcError(err: unknown): err is Error & { code: number } {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number';
}

function defaultMessage(status: number): string {
  if (status === 503) return 'Service temporarily unavailable';
  if (status === 504) return 'Upstream service did not answer in time';
  return 'Request failed';
}

/** Express error middleware of the REST routers: maps, logs server-side failures once, never leaks detail. */
export function errorMiddleware(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const mapped = httpErrorOf(err);
    if (mapped.status >= 500)
      // The route template, never the path: paths carry ids and upload tokens.
      logger.error(
        {
          err,
          requestId: res.locals.requestId as unknown,
          method: req.method,
          route: res.locals.route as unknown,
        },
        'request failed',
      );
    if (!res.headersSent) res.status(mapped.status).json(mapped.body);
  };
}

/** Any error a REST route can meet, body parser and path decoding failures included, as the HTTP status and body. */
export function httpErrorOf(err: unknown): HttpError {
  return bodyParserError(err) ?? pathDecodingError(err) ?? toHttpError(err);
}

/**
 * A path parameter that is not percent-encoded UTF-8 (`/verification/%E0%A4%A`) on the admin API, OAuth or
 * upload URLs: the router cannot decode it and says 400 (a URIError with status 400). The client's mistake,
 * never a server error. (REST v2 refuses such paths before routing: http/request-path.ts.)
 */
function pathDecodingError(err: unknown): HttpError | undefined {
  if (!(err instanceof URIError) || (err as { status?: unknown }).status !== 400) return undefined;
  return {
    status: 400,
    body: { errorIds: ['invalidRequest'], systemErrorMessage: 'The path is not valid percent-encoded UTF-8' },
  };
}

/** express.json failures: oversized bodies (413) and malformed JSON (400 invalidRequest). */
function bodyParserError(err: unknown): HttpError | undefined {
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.too.large') {
    return {
      status: 413,
      body: { errorIds: ['invalidRequest'], systemErrorMessage: 'Request body is too large' },
    };
  }
  if (type === 'entity.parse.failed' || type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return {
      status: 400,
      body: { errorIds: ['invalidRequest'], systemErrorMessage: 'Request body is not valid JSON' },
    };
  }
  return undefined;
}
