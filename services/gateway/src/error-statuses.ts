import { status as Status } from '@grpc/grpc-js';

/**
 * The one table of HTTP statuses (docs/architecture.md, "Errors"). Services raise a kind, errorIds and, for a
 * failure no errorId names, a reason; which status a REST client sees is decided here alone.
 */

/** grpc-gateway's mapping (runtime/errors.go HTTPStatusFromCode): the status of a kind unless named below. */
export const STATUS_BY_GRPC_CODE: Readonly<Record<Status, number>> = {
  [Status.OK]: 200,
  [Status.CANCELLED]: 499,
  [Status.UNKNOWN]: 500,
  [Status.INVALID_ARGUMENT]: 400,
  [Status.DEADLINE_EXCEEDED]: 504,
  [Status.NOT_FOUND]: 404,
  [Status.ALREADY_EXISTS]: 409,
  [Status.PERMISSION_DENIED]: 403,
  [Status.RESOURCE_EXHAUSTED]: 429,
  [Status.FAILED_PRECONDITION]: 400,
  [Status.ABORTED]: 409,
  [Status.OUT_OF_RANGE]: 400,
  [Status.UNIMPLEMENTED]: 501,
  [Status.INTERNAL]: 500,
  [Status.UNAVAILABLE]: 503,
  [Status.DATA_LOSS]: 500,
  [Status.UNAUTHENTICATED]: 401,
};

/** Statuses the REST v2 spec gives an errorId, whatever kind the service raised it with. */
export const STATUS_BY_ERROR_ID: Readonly<Record<string, number>> = {
  // A program whose pool ran dry: the request was fine, the program's state refuses it.
  noRemainingRewardCodes: 409,
};

/** Statuses of failures a service names by reason (DomainErrorOptions.reason) rather than by errorId. */
export const STATUS_BY_REASON: Readonly<Record<string, number>> = {
  // An upload URL that existed but was used or has expired: gone, not unknown.
  uploadUrlUsed: 410,
  // A review or add-school request another reviewer decided first: the request was fine, the resource moved on.
  alreadyDecided: 409,
  // Cancelling an upload whose files all arrived.
  uploadCompleted: 409,
  // The object store did not take a form B file: a bad gateway behind the service, not the service being
  // unavailable; nothing was kept and the client may send the files again.
  documentStoreFailed: 502,
};

/** The status of a failure: its reason's, else its first errorId's, else its kind's (500 for an unknown code). */
export function httpStatusOf(code: Status, errorIds: readonly string[], reason: string | undefined): number {
  if (reason !== undefined && STATUS_BY_REASON[reason] !== undefined) return STATUS_BY_REASON[reason];
  for (const id of errorIds) if (STATUS_BY_ERROR_ID[id] !== undefined) return STATUS_BY_ERROR_ID[id];
  return STATUS_BY_GRPC_CODE[code] ?? 500;
}
