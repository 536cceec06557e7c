import { status as Status } from '@grpc/grpc-js';
import { domainErrorKinds } from '../errors/domain-error';
import { genericMessageByGrpcCode, grpcCodeName, grpcStatusByKind, isGrpcCode } from './status-mapping';

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
