import {
  EMAIL_LOOP_RULES,
  emailAtDomains,
  isEmailTokenShape,
  judgeEmailToken,
  normalizeEmailToken,
  resendRefusal,
} from './email-loop';

const now = new Date('2026-11-26T12:00:00Z');
const state = (over: Partial<Parameters<typeof judgeEmailToken>[0]> = {}) => ({
  expiresAt: new Date(now.getTime() + 60_000),
  sends: 1,
  lastSentAt: new Date(now.getTime() - 120_000),
  wrongCodes: 0,
  ...over,
});

describe('emailAtDomains', () => {
  it.each([
    ['jane@stanford.edu', ['stanford.edu'], true],
    ['jane@cs.Stanford.EDU', ['stanford.edu'], true],
    ['jane@stanford.edu.', ['stanford.edu'], true],
    ['jane@notstanford.edu', ['stanford.edu'], false],
    ['jane@stanford.edu.evil.example', ['stanford.edu'], false],
    ['jane@gmail.com', [], false],
    ['no-at-sign', ['stanford.edu'], false],
    ['jane@', ['stanford.edu'], false],
    ['a@b@stanford.edu', ['stanford.edu'], true],
  ])('%s at %j: %s', (email, domains, expected) => {
    expect(emailAtDomains(email, domains)).toBe(expected);
  });
});

describe('the code', () => {
  it('is six digits, spaces and hyphens ignored', () => {
    expect(isEmailTokenShape(normalizeEmailToken(' 123 456 '))).toBe(true);
    expect(isEmailTokenShape(normalizeEmailToken('123-456'))).toBe(true);
    expect(isEmailTokenShape('12345')).toBe(false);
    expect(isEmailTokenShape('12345a')).toBe(false);
    expect(isEmailTokenShape('١٢٣٤٥٦')).toBe(false);
  });

  it('is accepted while current, refused once expired (not counted as wrong)', () => {
    expect(judgeEmailToken(state(), now, true)).toBe('accepted');
    expect(judgeEmailToken(state({ expiresAt: now }), now, true)).toBe('expired');
  });

  it('ends the loop at the last allowed wrong code', () => {
    expect(judgeEmailToken(state({ wrongCodes: EMAIL_LOOP_RULES.maxWrongCodes - 2 }), now, false)).toBe(
      'wrong',
    );
    expect(judgeEmailToken(state({ wrongCodes: EMAIL_LOOP_RULES.maxWrongCodes - 1 }), now, false)).toBe(
      'tooManyWrong',
    );
  });
});

describe('resendRefusal', () => {
  it('refuses within the cooldown and past the cap', () => {
    expect(resendRefusal(state(), now)).toBeUndefined();
    expect(resendRefusal(state({ lastSentAt: new Date(now.getTime() - 59_999) }), now)).toBe(
      'emailLoopResendTooSoon',
    );
    expect(resendRefusal(state({ sends: EMAIL_LOOP_RULES.maxSends }), now)).toBe(
      'maxEmailLoopResendsExceeded',
    );
  });
});
