import { afterFailure, cleared, isLocked, type LockState } from './lockout';

const settings = { maxAttempts: 5, lockMs: 15 * 60_000 };
const t0 = new Date('2025-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** The state after `n` wrong passwords, one a second from t0. */
function failures(n: number, from: LockState = cleared()): LockState {
  let state = from;
  for (let i = 0; i < n; i += 1) state = afterFailure(state, at(i * 1000), settings);
  return state;
}

describe('staff sign-in lockout', () => {
  it('counts wrong passwords in a row without locking below the limit', () => {
    expect(failures(4)).toEqual({ failedAttempts: 4, lockedUntil: null });
    expect(isLocked(failures(4), at(4000))).toBe(false);
  });

  it('locks on the 5th wrong password in a row, for 15 minutes from it', () => {
    const locked = failures(5);
    expect(locked).toEqual({ failedAttempts: 0, lockedUntil: at(4000 + 15 * 60_000) });
    expect(isLocked(locked, at(4000))).toBe(true);
    expect(isLocked(locked, at(4000 + 15 * 60_000 - 1))).toBe(true);
    expect(isLocked(locked, at(4000 + 15 * 60_000))).toBe(false);
  });

  it('does not extend the lock while it holds', () => {
    const locked = failures(5);
    expect(afterFailure(locked, at(60_000), settings)).toBe(locked);
    expect(afterFailure(locked, at(14 * 60_000), settings)).toBe(locked);
  });

  it('counts from zero once a lock has run out: five more wrong passwords to lock again', () => {
    const locked = failures(5);
    const after = at(4000 + 15 * 60_000);
    const once = afterFailure(locked, after, settings);
    expect(once).toEqual({ failedAttempts: 1, lockedUntil: null });
    let state = once;
    for (let i = 1; i < 5; i += 1) state = afterFailure(state, after, settings);
    expect(isLocked(state, after)).toBe(true);
  });

  it('starts again after a success (5 failures in a row, not in total)', () => {
    expect(failures(4, cleared()).failedAttempts).toBe(4);
    expect(failures(4, cleared())).not.toEqual(cleared());
    expect(isLocked(failures(4, cleared()), at(10_000))).toBe(false);
  });

  it('takes other settings (1 attempt, 1 second)', () => {
    const strict = { maxAttempts: 1, lockMs: 1000 };
    const locked = afterFailure(cleared(), t0, strict);
    expect(locked.lockedUntil).toEqual(at(1000));
  });
});
