import { status as Status } from '@grpc/grpc-js';
import { domainErrorKinds } from '../errors/domain-error';
import {
  genericMessageByGrpcCode,
  grpcCodeName,
  grpcStatusByKind,
  httpStatusFromGrpcCode,
  isGrpcCode,
} from './status-mapping';

describe('domain error kind -> gRPC status', () => {
  it.each([
    ['invalidArgument', Status.INVALID_ARGUMENT],
    ['notFound', Status.NOT_FOUND],
    ['conflict', Status.ALREADY_EXISTS],
    ['failedPrecondition', Status.FAILED_PRECONDITION],
    ['resourceExhausted', Status.RESOURCE_EXHAUSTED],
    ['unauthenticated', Status.UNAUTHENTICATED],
    ['permissionDenied', Status.PERMISSION_DENIED],
    ['unavailable', Status.UNAVAILABLE],
    ['deadlineExceeded', Status.DEADLINE_EXCEEDED],
    ['internal', Status.INTERNAL],
  ] as const)('%s -> %s', (kind, code) => {
    expect(grpcStatusByKind[kind]).toBe(code);
  });

  it('covers every kind', () => {
    expect(Object.keys(grpcStatusByKind).sort()).toEqual([...domainErrorKinds].sort());
  });
});

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
    expect(httpStatusFromGrpcCode(code)).toBe(http);
  });

  it('falls back to 500 for a code it does not know', () => {
    expect(httpStatusFromGrpcCode(99 as Status)).toBe(500);
  });
});

describe('code names and generic messages', () => {
  it('names codes as gRPC does', () => {
    expect(grpcCodeName(Status.NOT_FOUND)).toBe('NOT_FOUND');
    expect(grpcCodeName(42)).toBe('CODE_42');
  });

  it('has a generic message for every code', () => {
    for (let code = 0; code <= 16; code++) {
      expect(isGrpcCode(code)).toBe(true);
      expect(genericMessageByGrpcCode[code as Status]).toEqual(expect.any(String));
    }
    expect(isGrpcCode(17)).toBe(false);
    expect(isGrpcCode('ECONNREFUSED')).toBe(false);
  });
});
