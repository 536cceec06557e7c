import type { ErrorId } from '@eligo/vocabulary';

/**
 * The email loop's rules (issue 22): a one-time code mailed to an address at the chosen organization proves
 * the person reads that organization's mail. Six digits keep it easy to type; what makes guessing useless is
 * the small number of tries (MAX_WRONG_CODES over the whole loop, resends included: 5 in a million), the
 * short life of a code and the cap on codes mailed.
 */
export const EMAIL_LOOP_RULES = {
  codeDigits: 6,
  codeTtlMs: 15 * 60_000,
  resendCooldownMs: 60_000,
  /** Codes mailed per verification, the first included. */
  maxSends: 5,
  /** Wrong codes per verification: the last one ends the loop in docUpload. */
  maxWrongCodes: 5,
} as const;

/** What a code check and a resend need of the stored loop. */
export interface EmailLoopState {
  expiresAt: Date;
  sends: number;
  lastSentAt: Date;
  wrongCodes: number;
}

/** Whether the address is at one of the organization's domains (the domain itself or a subdomain of it). */
export function emailAtDomains(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const host = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  if (!host) return false;
  return domains.some((d) => {
    const domain = d.trim().toLowerCase().replace(/\.$/, '');
    return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
  });
}

/** A code as typed: spaces and hyphens are how people group digits, not part of the code. */
export function normalizeEmailToken(token: string): string {
  return token.replace(/[\s-]/g, '');
}

export function isEmailTokenShape(token: string): boolean {
  return new RegExp(`^\\d{${EMAIL_LOOP_RULES.codeDigits}}$`).test(token);
}

export type TokenVerdict = 'accepted' | 'expired' | 'wrong' | 'tooManyWrong';

/**
 * A submitted code's verdict. An expired code is not counted as wrong (the person did nothing wrong); the
 * right code after expiry is still refused. The wrong code that reaches the limit ends the loop.
 */
export function judgeEmailToken(state: EmailLoopState, now: Date, matches: boolean): TokenVerdict {
  if (matches && now < state.expiresAt) return 'accepted';
  if (matches) return 'expired';
  return state.wrongCodes + 1 >= EMAIL_LOOP_RULES.maxWrongCodes ? 'tooManyWrong' : 'wrong';
}

/** Why a new code cannot be mailed now; undefined when it can. */
export function resendRefusal(state: EmailLoopState, now: Date): ErrorId | undefined {
  if (state.sends >= EMAIL_LOOP_RULES.maxSends) return 'maxEmailLoopResendsExceeded';
  if (now.getTime() - state.lastSentAt.getTime() < EMAIL_LOOP_RULES.resendCooldownMs)
    return 'emailLoopResendTooSoon';
  return undefined;
}
