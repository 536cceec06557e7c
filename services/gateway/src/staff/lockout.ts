/**
 * The lockout of staff sign-ins (docs/operations.md, "Staff identities"): `maxAttempts` wrong passwords in a
 * row lock the account for `lockMs`. While locked, every sign-in is refused as a wrong password is, the right
 * password included, and attempts do not extend the lock; a successful sign-in starts the count again.
 * Pure: the sign-in use case reads the state under a row lock, asks here, and writes the answer back.
 */
export interface LockoutSettings {
  /** Wrong passwords in a row that lock the account (ELIGO_GATEWAY_STAFF_LOCKOUT_ATTEMPTS). */
  maxAttempts: number;
  /** How long the lock lasts (ELIGO_GATEWAY_STAFF_LOCKOUT_MS). */
  lockMs: number;
}

export interface LockState {
  failedAttempts: number;
  lockedUntil: Date | null;
}

export function isLocked(state: LockState, now: Date): boolean {
  return state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();
}

/** The state after a wrong password at `now`. */
export function afterFailure(state: LockState, now: Date, settings: LockoutSettings): LockState {
  if (isLocked(state, now)) return state;
  // A lock that has run out counts from zero again (its attempts were reset when it was set).
  const failedAttempts = state.failedAttempts + 1;
  if (failedAttempts >= settings.maxAttempts)
    return { failedAttempts: 0, lockedUntil: new Date(now.getTime() + settings.lockMs) };
  return { failedAttempts, lockedUntil: null };
}

/** The state after a successful sign-in (or a password reset): no failures, no lock. */
export const cleared = (): LockState => ({ failedAttempts: 0, lockedUntil: null });
