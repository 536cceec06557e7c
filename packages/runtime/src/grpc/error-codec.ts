import { Metadata, status as Status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import {
  invalidArgument,
  isDomainError,
  isDomainErrorKind,
  type DomainError,
  type DomainErrorKind,
  REASON_PATTERN,
} from '../errors/domain-error';
import {
  errorMetadataKeys as keys,
  genericMessageByGrpcCode,
  grpcCodeName,
  grpcStatusByKind,
  isGrpcCode,
} from './status-mapping';

/** A gRPC error raised by the client itself (the breaker refused the call, the client was closed). */
export class GrpcCallError extends Error implements ServiceError {
  readonly code: Status;
  readonly details: string;
  readonly metadata: Metadata;

  constructor(code: Status, details: string, metadata: Metadata = new Metadata()) {
    super(`${code} ${grpcCodeName(code)}: ${details}`);
    this.name = 'GrpcCallError';
    this.code = code;
    this.details = details;
    this.metadata = metadata;
  }
}

/** What a handler's error becomes on the wire, and whether (and how loudly) the server logs it once. */
export interface EncodedError {
  status: StatusObject;
  log: 'error' | 'warn' | undefined;
}

const errorIdPattern = /^[A-Za-z0-9_.-]+$/;

/**
 * Handler error -> status. Domain errors keep their message (written for integrators) and carry errorIds,
 * http status and body shape in trailing metadata. Anything else is a bug or a dependency failure: the client
 * gets a generic message and the server logs the detail once.
 */
export function encodeError(err: unknown): EncodedError {
  if (isDomainError(err)) {
    return { status: domainStatus(err), log: err.kind === 'internal' ? 'error' : undefined };
  }
  if (isServiceError(err)) {
    // A dependency's transport failure travels on as the same condition (503/504 at the gateway); the kind
    // marker tells upstream clients not to retry it again, since this server's client already retried.
    // A dependency's domain error is not ours to forward: the use case must translate it, so it is a bug here.
    if (err.code === Status.UNAVAILABLE || err.code === Status.DEADLINE_EXCEEDED) {
      const kind: DomainErrorKind = err.code === Status.UNAVAILABLE ? 'unavailable' : 'deadlineExceeded';
      const metadata = new Metadata();
      metadata.set(keys.kind, kind);
      return {
        status: { code: err.code, details: genericMessageByGrpcCode[err.code], metadata },
        log: 'warn',
      };
    }
  }
  if (isPostgresDataException(err)) {
    // The database refused a value the caller sent (a NUL character, a number out of range): the caller's
    // problem, not the server's. Edge validation should have caught it, so it is logged; the status keeps it
    // from reading as a failing server (500, retries, breakers).
    return {
      status: domainStatus(
        invalidArgument('A value in the request cannot be stored (a character or number the store refuses)', {
          errorIds: ['invalidRequest'],
        }),
      ),
      log: 'warn',
    };
  }
  return {
    status: {
      code: Status.INTERNAL,
      details: genericMessageByGrpcCode[Status.INTERNAL],
      metadata: new Metadata(),
    },
    log: 'error',
  };
}

/** A Postgres error of SQLSTATE class 22 (data exception), as `pg` raises it (knex keeps its fields). */
function isPostgresDataException(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) && typeof severity === 'string';
}

function domainStatus(err: DomainError): StatusObject {
  const metadata = new Metadata();
  metadata.set(keys.kind, err.kind);
  // Metadata values must be printable ASCII; errorIds are identifiers, anything else would corrupt the header.
  const ids = err.errorIds.filter((id) => errorIdPattern.test(id));
  if (ids.length > 0) metadata.set(keys.errorIds, ids.join(','));
  if (err.reason !== undefined) metadata.set(keys.reason, err.reason);
  return { code: grpcStatusByKind[err.kind], details: err.message, metadata };
}

export interface DecodedGrpcError {
  code: Status;
  /** e.g. "NOT_FOUND". */
  codeName: string;
  /** Safe to show an integrator: the domain error's message, or a generic text for everything else. */
  message: string;
  errorIds: string[];
  /** The domain error's reason, when it gave one (see DomainErrorOptions.reason). */
  reason?: string;
  /** Present when a handler raised the error on purpose (absent for transport failures and bugs). */
  kind?: DomainErrorKind;
  /** The client's breaker refused the call: the dependency is failing and was not called. */
  circuitOpen: boolean;
  /** The raw status text, for logs only: it may name hosts, ports or internals. */
  detail: string;
}

/**
 * Status (or domain error, or anything thrown) -> the fields the gateway's error mapper needs. The reverse of
 * encodeError, so that one mapper in the gateway turns any failure into HTTP.
 */
export function decodeGrpcError(err: unknown): DecodedGrpcError {
  if (isDomainError(err)) {
    const code = grpcStatusByKind[err.kind];
    return {
      code,
      codeName: grpcCodeName(code),
      message: err.message,
      errorIds: [...err.errorIds],
      ...(err.reason !== undefined ? { reason: err.reason } : {}),
      kind: err.kind,
      circuitOpen: false,
      detail: err.message,
    };
  }
  if (!isServiceError(err)) {
    const detail = err instanceof Error ? err.message : String(err);
    return {
      code: Status.INTERNAL,
      codeName: grpcCodeName(Status.INTERNAL),
      message: genericMessageByGrpcCode[Status.INTERNAL],
      errorIds: [],
      circuitOpen: false,
      detail,
    };
  }
  const md = err.metadata instanceof Metadata ? err.metadata : new Metadata();
  const kindValue = first(md, keys.kind);
  const kind = isDomainErrorKind(kindValue) ? kindValue : undefined;
  const ids = first(md, keys.errorIds);
  const reason = first(md, keys.reason);
  const detail = err.details ?? err.message;
  return {
    code: err.code,
    codeName: grpcCodeName(err.code),
    message: kind !== undefined && detail ? detail : genericMessageByGrpcCode[err.code],
    errorIds: ids
      ? ids
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
    ...(kind !== undefined && reason !== undefined && REASON_PATTERN.test(reason) ? { reason } : {}),
    ...(kind !== undefined ? { kind } : {}),
    circuitOpen: first(md, keys.circuitOpen) === 'true',
    detail,
  };
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof Error && isGrpcCode((err as Partial<ServiceError>).code);
}

/**
 * The peer's handler sent this status on purpose (encodeError marks every such status with the error kind),
 * unlike one the transport made up (no connection, the client's own deadline). Such an answer proves the peer
 * is up, even an UNAVAILABLE: a service the peer calls is down, and the peer says so.
 */
export function isHandlerAnswer(err: ServiceError): boolean {
  return (err.metadata?.get(keys.kind).length ?? 0) > 0;
}

function first(md: Metadata, key: string): string | undefined {
  const value = md.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}
