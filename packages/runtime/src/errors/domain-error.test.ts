import * as errors from './domain-error';

describe('domain errors', () => {
  it.each([
    ['invalidArgument', errors.invalidArgument],
    ['notFound', errors.notFound],
    ['conflict', errors.conflict],
    ['failedPrecondition', errors.failedPrecondition],
    ['resourceExhausted', errors.resourceExhausted],
    ['unauthenticated', errors.unauthenticated],
    ['permissionDenied', errors.permissionDenied],
    ['unavailable', errors.unavailable],
    ['deadlineExceeded', errors.deadlineExceeded],
    ['internal', errors.internal],
  ] as const)('%s() builds a DomainError of that kind', (kind, make) => {
    const err = make('message for integrators', { errorIds: ['someId'] });
    expect(err).toBeInstanceOf(errors.DomainError);
    expect(errors.isDomainError(err)).toBe(true);
    expect(err).toMatchObject({ kind, message: 'message for integrators', errorIds: ['someId'] });
    expect(errors.isDomainErrorKind(kind)).toBe(true);
  });

  it('defaults to no errorIds and no reason, and keeps the cause', () => {
    const cause = new Error('low level');
    const err = errors.notFound('No program', { cause });
    expect(err).toMatchObject({ errorIds: [], reason: undefined, cause });
  });

  it('takes a reason only as an identifier (it travels in metadata)', () => {
    expect(errors.notFound('Used', { reason: 'uploadUrlUsed' }).reason).toBe('uploadUrlUsed');
    expect(() => errors.notFound('Used', { reason: 'upload url used' })).toThrow(TypeError);
  });

  it('rejects unknown kinds and plain errors', () => {
    expect(errors.isDomainErrorKind('teapot')).toBe(false);
    expect(errors.isDomainError(new Error('x'))).toBe(false);
  });
});
