/**
 * Typed domain errors (docs/architecture.md, "Errors"). Domain and use-case code throws these; the gRPC
 * interceptor turns them into a status with the errorIds in metadata, and the gateway turns that status into
 * the HTTP status and one of the spec's bodies. The message is for integrators (systemErrorMessage), never
 * internal detail.
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

/** Which REST body the gateway should render: ER {errorIds, systemErrorMessage} or SEM {systemErrorMessage}. */
export type ErrorBodyShape = 'ER' | 'SEM';

export interface DomainErrorOptions {
  errorIds?: readonly string[];
  /** Overrides the HTTP status the gateway would derive from the kind (the spec's own statuses win). */
  httpStatus?: number;
  body?: ErrorBodyShape;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly errorIds: readonly string[];
  readonly httpStatus: number | undefined;
  readonly body: ErrorBodyShape | undefined;

  constructor(kind: DomainErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.errorIds = options.errorIds ?? [];
    this.httpStatus = options.httpStatus;
    this.body = options.body;
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
