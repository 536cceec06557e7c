import { status as Status } from '@grpc/grpc-js';
import { isDomainError, notFound } from '../errors/domain-error';
import { callDependency } from './dependency';
import { encodeError, GrpcCallError } from './error-codec';

/** What a client sees when the dependency's handler threw `err` (its status and trailing metadata). */
function asReceived(err: unknown): GrpcCallError {
  const { status } = encodeError(err);
  return new GrpcCallError(status.code, status.details, status.metadata);
}

const failing = (err: unknown) => () => Promise.reject(err);
const own = () =>
  asReceived(notFound('Verification x not found', { errorIds: ['noVerification'], reason: 'gone' }));

describe('callDependency', () => {
  it.each([
    [Status.DEADLINE_EXCEEDED, 'deadlineExceeded', 'The programs service did not answer in time'],
    [Status.UNAVAILABLE, 'unavailable', 'The programs service is unavailable'],
  ])(
    'turns a dependency that could not answer (%s) into our own %s, naming it',
    async (code, kind, message) => {
      const err = await callDependency(
        'programs',
        failing(new GrpcCallError(code, 'connect ECONNREFUSED 10.0.0.7:50051')),
      ).catch((e) => e);
      expect(isDomainError(err)).toBe(true);
      expect(err).toMatchObject({ kind, message });
    },
  );

  it("lets the dependency's own error travel on by default, for the use case to translate", async () => {
    const received = own();
    await expect(callDependency('programs', failing(received))).rejects.toBe(received);
  });

  it('raises its own error again as ours, unchanged, when asked to forward', async () => {
    const err = await callDependency('verification', failing(own()), { forwardOwnErrors: true }).catch(
      (e) => e,
    );
    expect(isDomainError(err)).toBe(true);
    expect(err).toMatchObject({
      kind: 'notFound',
      message: 'Verification x not found',
      errorIds: ['noVerification'],
      reason: 'gone',
    });
  });

  it('passes anything else on as it is', async () => {
    const bug = new Error('bug');
    await expect(callDependency('programs', failing(bug))).rejects.toBe(bug);
  });
});
