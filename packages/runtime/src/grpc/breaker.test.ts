import { setTimeout as sleep } from 'node:timers/promises';
import { status as Status } from '@grpc/grpc-js';
import { unavailable } from '../errors/domain-error';
import { CallBreaker } from './breaker';
import { encodeError, GrpcCallError } from './error-codec';

/** What a client receives for a status: grpc-js turns the status object into a ServiceError. */
function received(err: unknown): GrpcCallError {
  const { status } = encodeError(err);
  return new GrpcCallError(status.code, status.details, status.metadata);
}

const refused = () => new GrpcCallError(Status.UNAVAILABLE, 'connect ECONNREFUSED 127.0.0.1:1');
// What a verification handler answers while programs is down: callDependency's error, or the raw one.
const dependencyDown = [
  ['unavailable', () => received(unavailable('The programs service is unavailable'))],
  ['its transport UNAVAILABLE', () => received(refused())],
  ['its DEADLINE_EXCEEDED', () => received(new GrpcCallError(Status.DEADLINE_EXCEEDED, 'Deadline exceeded'))],
] as const;

describe('CallBreaker', () => {
  const breakers: CallBreaker[] = [];
  const breaker = (resetTimeoutMs = 60_000) => {
    const b = new CallBreaker('eligo.verification.v1.VerificationService', {
      volumeThreshold: 3,
      resetTimeoutMs,
    });
    breakers.push(b);
    return b;
  };
  const failWith = (b: CallBreaker, err: () => Error) => b.run(() => Promise.reject(err())).catch(() => {});

  afterAll(() => breakers.forEach((b) => b.shutdown()));

  it.each(dependencyDown)(
    "does not count the peer's answer that a dependency is down (%s)",
    async (_, err) => {
      const b = breaker();
      for (let i = 0; i < 10; i++) await failWith(b, err);
      expect(b.state).toBe('closed');
    },
  );

  it('opens on transport failures of the peer itself', async () => {
    const b = breaker();
    for (let i = 0; i < 3; i++) await failWith(b, refused);
    expect(b.state).toBe('open');
    await expect(b.run(() => Promise.resolve('called'))).rejects.toMatchObject({ code: Status.UNAVAILABLE });
  });

  it('closes when the half-open probe reaches the peer, even if a dependency of the peer is still down', async () => {
    const b = breaker(50);
    for (let i = 0; i < 3; i++) await failWith(b, refused);
    await sleep(80);
    expect(b.state).toBe('halfOpen');
    await failWith(b, dependencyDown[0][1]);
    expect(b.state).toBe('closed');
  });

  it('tells the call whether it is the half-open probe', async () => {
    const b = breaker(50);
    const probe = () => b.run((p) => Promise.resolve(p));
    expect(await probe()).toBe(false);
    for (let i = 0; i < 3; i++) await failWith(b, refused);
    await sleep(80);
    expect(await probe()).toBe(true);
    expect(b.state).toBe('closed');
    expect(await probe()).toBe(false);
    expect(await new CallBreaker('x', false).run((p) => Promise.resolve(p))).toBe(false);
  });
});
