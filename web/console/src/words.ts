import type { Failure } from './api';

// What the console says about what happened, in plain words (pure: tested in words.test.ts).

/** What a failure means for the person at the console, in plain words. */
export function failureText(failure: Failure, role: string, what: string): string {
  const detail = failure.message ? ` (${failure.message})` : '';
  if (failure.status === 0) return 'Eligo could not be reached. Check the connection and try again.';
  if (failure.status === 401) return 'Your session ended. Sign in again.';
  if (failure.status === 403 && failure.errorIds.includes('insufficientRole'))
    return `Your role (${role}) may not ${what}. Ask an admin if you need to.`;
  if (failure.status === 403) return `Eligo refused to ${what}${detail}. Reload the page and try again.`;
  if (failure.status === 404) return `Not found: Eligo has nothing to ${what}${detail}.`;
  if (failure.status === 409) return `Eligo could not ${what}: ${failure.message || 'it changed meanwhile'}.`;
  if (failure.status === 400) return `Eligo could not ${what}: ${failure.message || 'a value is not valid'}.`;
  return `Eligo could not ${what} (status ${failure.status})${detail}.`;
}

/** Who holds a review's claim, in the reviewer's words. */
export function claimText(claimedBy: string | null | undefined, staffId: string): string {
  if (!claimedBy) return '';
  return claimedBy === `staff:${staffId}` ? 'Claimed by you' : 'Claimed by someone else';
}
