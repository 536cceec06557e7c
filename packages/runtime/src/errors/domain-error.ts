/**
 * Typed domain errors (docs/architecture.md, "Errors"). Domain and use-case code throws these: a kind, the
 * errorIds of the failure and, for a failure no errorId names, a reason. The gRPC interceptor turns them into
 * a status with the errorIds and reason in metadata; the gateway alone turns that into an HTTP status and one
 * of the spec's bodies (services/gateway/src/errors.ts). The message is for integrators (systemErrorMessage),
 * never internal detail.
 */
export type DomainErrorKind =
  | 'invalidArgument'
  | 'notFound'
  | 'conflict'
  | 'failedPrecondition'
  | 'resourceExhausted'
  | 'unauthenticated'
  | 'permissionDenied'
  | 'unavailable'
  | 'deadlineExceeded'
  | 'internal';

/** Every kind, for validating a kind that arrived over the wire (trailing metadata). */
export const domainErrorKinds: readonly DomainErrorKind[] = [
  'invalidArgument',
  'notFound',
  'conflict',
  'failedPrecondition',
  'resourceExhausted',
  'unauthenticated',
  'permissionDenied',
  'unavailable',
  'deadlineExceeded',
  'internal',
];

export function isDomainErrorKind(value: unknown): value is DomainErrorKind {
  return typeof value === 'string' && (domainErrorKinds as readonly string[]).includes(value);
}

/** A reason is an identifier (lowerCamelCase), like an errorId: it travels in gRPC metadata. */
export const REASON_PATTERN = /^[a-z][A-Za-z0-9]{0,63}$/;

export interface DomainErrorOptions {
  errorIds?: readonly string[];
  /**
   * What went wrong, for a failure that no errorId of the spec names but that a client must tell apart from
   * others of its kind (google.rpc.ErrorInfo's reason): `uploadUrlUsed` is a NOT_FOUND the gateway answers 410.
   */
  reason?: string;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly errorIds: readonly string[];
  readonly reason: string | undefined;

  constructor(kind: DomainErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.reason !== undefined && !REASON_PATTERN.test(options.reason))
      throw new TypeError(`a domain error reason is a lowerCamelCase identifier, not ${options.reason}`);
    this.name = 'DomainError';
    this.kind = kind;
    this.errorIds = options.errorIds ?? [];
    this.reason = options.reason;
  }
}

type Factory = (message: string, options?: DomainErrorOptions) => DomainError;
const factory =
  (kind: DomainErrorKind): Factory =>
  (message, options) =>
    new DomainError(kind, message, options);

export const invalidArgument = factory('invalidArgument');
export const notFound = factory('notFound');
export const conflict = factory('conflict');
export const failedPrecondition = factory('failedPrecondition');
export const resourceExhausted = factory('resourceExhausted');
export const unauthenticated = factory('unauthenticated');
export const permissionDenied = factory('permissionDenied');
export const unavailable = factory('unavailable');
export const deadlineExceeded = factory('deadlineExceeded');
export const internal = factory('internal');

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
