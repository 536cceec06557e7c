import { status as Status } from '@grpc/grpc-js';
import { decodeGrpcError, grpcStatusByKind, httpStatusByGrpcCode, isDomainError } from '@eligo/runtime';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** The spec's non-verification error bodies: ER {errorIds, systemErrorMessage} or SEM {systemErrorMessage}. */
export type ErrorBody = { errorIds: string[]; systemErrorMessage: string } | { systemErrorMessage: string };

export interface HttpError {
  status: number;
  body: ErrorBody;
}

const GENERIC = 'Internal server error';

/**
 * The one place that turns an error (a gRPC status from a service, or a domain error raised in the gateway)
 * into an HTTP status and body. Unknown errors become 500 with a generic message; their detail is logged once.
 */
export function toHttpError(err: unknown): HttpError {
  let code: Status;
  let message: string;
  let errorIds: readonly string[];
  let httpStatus: number | undefined;
  let shape: 'ER' | 'SEM' | undefined;
  if (isDomainError(err)) {
    code = grpcStatusByKind[err.kind];
    ({ message, errorIds, httpStatus, body: shape } = err);
  } else if (isGrpcError(err)) {
    const d = decodeGrpcError(err);
    code = d.code;
    ({ message, errorIds, httpStatus, body: shape } = d);
  } else {
    return { status: 500, body: { errorIds: ['internalServerError'], systemErrorMessage: GENERIC } };
  }
  // grpc-gateway's mapping (docs/architecture.md, "Errors"); a status the spec names explicitly overrides it.
  const status = httpStatus ?? httpStatusByGrpcCode[code] ?? 500;
  if (status >= 500 && code !== Status.UNAVAILABLE && code !== Status.DEADLINE_EXCEEDED) {
    return { status, body: { errorIds: ['internalServerError'], systemErrorMessage: GENERIC } };
  }
  const text = message || defaultMessage(status);
  if (shape === 'SEM' || (shape === undefined && errorIds.length === 0))
    return { status, body: { systemErrorMessage: text } };
  return { status, body: { errorIds: [...errorIds], systemErrorMessage: text } };
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
      logger.error({ err, method: req.method, route: req.route?.path ?? req.path }, 'request failed');
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
