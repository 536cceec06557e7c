import { codeProblem } from './codes';
import { CONTROL_CHARACTERS, Problems, requireValid } from './invalid';

/** One AddRewardCodes call is one multi-row insert; this bounds its size (and its bind parameters). */
export const MAX_CODES_PER_CALL = 10_000;
export const MAX_VERIFICATION_ID_LENGTH = 64;

/**
 * Codes to add to a pool: trimmed (uploads come from spreadsheets), each a valid code, duplicates inside the
 * request dropped (the pool keeps every code once; the store skips those it already has).
 */
export function normaliseRewardCodes(codes: readonly string[]): string[] {
  const problems = new Problems();
  if (codes.length === 0) problems.add('codes', 'at least one code is required');
  if (codes.length > MAX_CODES_PER_CALL)
    problems.add('codes', `at most ${MAX_CODES_PER_CALL} codes per call (got ${codes.length})`);
  problems.throwIfAny();
  const unique = new Set<string>();
  codes.forEach((raw, index) => {
    const code = raw.trim();
    const problem = codeProblem(code);
    if (problem) problems.add(`codes[${index}]`, problem);
    else unique.add(code);
  });
  problems.throwIfAny();
  return [...unique];
}

/** The verification a pool code is handed to (an id of the verification service). */
export function validateVerificationId(value: string): string {
  let problem: string | undefined;
  if (value.length === 0) problem = 'is required';
  else if (value.length > MAX_VERIFICATION_ID_LENGTH)
    problem = `must be at most ${MAX_VERIFICATION_ID_LENGTH} characters`;
  else if (CONTROL_CHARACTERS.test(value)) problem = 'must not contain control characters';
  requireValid('verificationId', problem);
  return value;
}

export const DEFAULT_CLAIMS_PAGE_SIZE = 100;
export const MAX_CLAIMS_PAGE_SIZE = 1000;

/** A page of claims: the requested size (0: the default), at most the maximum. */
export function claimsPageSize(requested: number): number {
  if (requested <= 0) return DEFAULT_CLAIMS_PAGE_SIZE;
  return Math.min(requested, MAX_CLAIMS_PAGE_SIZE);
}

/** A page token is the id of the last claim of the previous page ('' starts at the first claim). */
export function claimsPageStart(pageToken: string): string {
  if (pageToken === '') return '0';
  requireValid('pageToken', /^[1-9][0-9]{0,18}$/.test(pageToken) ? undefined : 'is not a page token');
  return pageToken;
}

/** The time a claim must precede to be listed or released: required, so that no fresh claim is touched. */
export function requireClaimedBefore(value: Date | undefined): Date {
  requireValid('claimedBefore', value === undefined ? 'is required' : undefined);
  return value!;
}

/** How full a reward pool is (GetRewardCodePoolLevel). */
export interface PoolLevel {
  /** The program hands out pool codes (offer type REWARD_POOL); false: every number is 0. */
  pooled: boolean;
  total: number;
  unused: number;
  claimed: number;
  low: boolean;
  lowThreshold: number;
}

/** The most a low threshold gets to, however large the pool: 50 codes left is low for any pool. */
export const MAX_LOW_THRESHOLD = 50;

/**
 * The level under which a pool runs low. Programs have no setting for it, so it is 10% of the pool rounded
 * up, at most 50 and at least 1: max(1, min(ceil(total / 10), 50)). For whole numbers of unused codes,
 * unused < ceil(total / 10) is the same as unused < 10% of total; the floor of 1 makes an empty pool low
 * (also one that never had a code), which ClaimRewardCode answers noRemainingRewardCodes.
 */
export function lowThreshold(total: number): number {
  return Math.max(1, Math.min(Math.ceil(total / 10), MAX_LOW_THRESHOLD));
}

/** The level of a pool with `total` codes, `unused` of them not handed out yet. */
export function poolLevel(total: number, unused: number): PoolLevel {
  const threshold = lowThreshold(total);
  return {
    pooled: true,
    total,
    unused,
    claimed: total - unused,
    low: unused < threshold,
    lowThreshold: threshold,
  };
}

/** A program whose offer is not a pool (static code, no code): nothing to count, never low. */
export function notPooled(): PoolLevel {
  return { pooled: false, total: 0, unused: 0, claimed: 0, low: false, lowThreshold: 0 };
}
