import { status as Status } from '@grpc/grpc-js';
import type { DomainErrorKind } from '../errors/domain-error';

/**
 * The pure tables of docs/architecture.md, "Errors": domain error kind -> gRPC status on the server, and the
 * metadata that carries the rest of a domain error. HTTP is the gateway's (services/gateway/src/error-statuses.ts).
 */
export const grpcStatusByKind: Readonly<Record<DomainErrorKind, Status>> = {
  invalidArgument: Status.INVALID_ARGUMENT,
  notFound: Status.NOT_FOUND,
  conflict: Status.ALREADY_EXISTS,
  failedPrecondition: Status.FAILED_PRECONDITION,
  resourceExhausted: Status.RESOURCE_EXHAUSTED,
  unauthenticated: Status.UNAUTHENTICATED,
  permissionDenied: Status.PERMISSION_DENIED,
  unavailable: Status.UNAVAILABLE,
  deadlineExceeded: Status.DEADLINE_EXCEEDED,
  internal: Status.INTERNAL,
};

/**
 * Messages safe to show an integrator when the status did not come from a domain error (transport failures,
 * unknown errors): their own text may name hosts, ports or internals.
 */
export const genericMessageByGrpcCode: Readonly<Record<Status, string>> = {
  [Status.OK]: 'OK',
  [Status.CANCELLED]: 'Request cancelled',
  [Status.UNKNOWN]: 'Internal server error',
  [Status.INVALID_ARGUMENT]: 'Invalid request',
  [Status.DEADLINE_EXCEEDED]: 'The request timed out',
  [Status.NOT_FOUND]: 'Not found',
  [Status.ALREADY_EXISTS]: 'Already exists',
  [Status.PERMISSION_DENIED]: 'Permission denied',
  [Status.RESOURCE_EXHAUSTED]: 'Too many requests',
  [Status.FAILED_PRECONDITION]: 'The request cannot be processed in the current state',
  [Status.ABORTED]: 'The request was aborted',
  [Status.OUT_OF_RANGE]: 'Invalid request',
  [Status.UNIMPLEMENTED]: 'Not implemented',
  [Status.INTERNAL]: 'Internal server error',
  [Status.UNAVAILABLE]: 'Service unavailable',
  [Status.DATA_LOSS]: 'Internal server error',
  [Status.UNAUTHENTICATED]: 'Unauthenticated',
};

/** "NOT_FOUND" for 5: the name used in logs and metric labels. */
export function grpcCodeName(code: number): string {
  return Status[code] ?? `CODE_${code}`;
}

export function isGrpcCode(value: unknown): value is Status {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= Status.UNAUTHENTICATED
  );
}

/**
 * Trailing metadata carrying a domain error across the wire. The kind doubles as the marker that the status
 * came from a handler on purpose (so its message is meant for integrators), not from the transport.
 */
export const errorMetadataKeys = {
  kind: 'eligo-error-kind',
  errorIds: 'eligo-error-ids',
  reason: 'eligo-error-reason',
  /** Set by the client when its circuit breaker refused the call without sending it. */
  circuitOpen: 'eligo-circuit-open',
} as const;

/**
 * Codes that mean "the server did not answer" rather than "the server answered" (breaker input), when the
 * transport reports them: a handler that sends one (passing on a dependency's outage) did answer. INTERNAL is
 * not one of them: a handler that answered INTERNAL is up, and one that does so for a client's bad input is a
 * bug to fix. Counting it let four malformed requests without a token open the breaker and take every
 * endpoint of the service down for its reset time.
 */
export const transportFailureCodes: readonly Status[] = [Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED];
