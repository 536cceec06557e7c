import { status as Status } from '@grpc/grpc-js';
import { httpStatusOf, STATUS_BY_ERROR_ID, STATUS_BY_REASON } from './error-statuses';

describe('gRPC status -> HTTP status (grpc-gateway)', () => {
  it.each([
    [Status.OK, 200],
    [Status.INVALID_ARGUMENT, 400],
    [Status.FAILED_PRECONDITION, 400],
    [Status.UNAUTHENTICATED, 401],
    [Status.PERMISSION_DENIED, 403],
    [Status.NOT_FOUND, 404],
    [Status.ALREADY_EXISTS, 409],
    [Status.RESOURCE_EXHAUSTED, 429],
    [Status.CANCELLED, 499],
    [Status.INTERNAL, 500],
    [Status.UNKNOWN, 500],
    [Status.UNIMPLEMENTED, 501],
    [Status.UNAVAILABLE, 503],
    [Status.DEADLINE_EXCEEDED, 504],
  ])('%s -> %s', (code, http) => {
    expect(httpStatusOf(code, [], undefined)).toBe(http);
  });

  it('falls back to 500 for a code it does not know', () => {
    expect(httpStatusOf(99 as Status, [], undefined)).toBe(500);
  });
});

describe('statuses the spec names', () => {
  it('gives an errorId its own status over the kind (no codes left: 409, not 400)', () => {
    expect(httpStatusOf(Status.FAILED_PRECONDITION, ['noRemainingRewardCodes'], undefined)).toBe(409);
    expect(STATUS_BY_ERROR_ID.noRemainingRewardCodes).toBe(409);
  });
  it('gives a reason its status over the errorIds and the kind (a used upload URL: 410)', () => {
    expect(httpStatusOf(Status.NOT_FOUND, [], 'uploadUrlUsed')).toBe(410);
    expect(STATUS_BY_REASON.uploadUrlUsed).toBe(410);
  });
  it('answers a document store that did not take a file 502, not the kind’s 503', () => {
    expect(httpStatusOf(Status.UNAVAILABLE, [], 'documentStoreFailed')).toBe(502);
  });
  it('keeps the kind for errorIds and reasons it does not list', () => {
    expect(httpStatusOf(Status.NOT_FOUND, ['noProgram'], 'somethingElse')).toBe(404);
  });
});
