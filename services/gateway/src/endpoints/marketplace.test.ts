import { checkBody } from './body-check';
import { MarketplaceVerificationRequest } from './marketplace';

/**
 * POST /verification/marketplace's body, checked by its definition's schema. The expected answers are the
 * OpenAPI validator's on the hand-written MarketplaceVerificationRequest (validation/request-validator.ts),
 * captured before it was removed.
 */
const jws = 'eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl';
const programId = 'ab'.repeat(12);

describe('the body check of MarketplaceVerificationRequest', () => {
  it.each<[unknown, string | null]>([
    [{ programId: programId, marketplaceToken: jws }, null],
    [{ programId: programId, verificationToken: jws, trackingId: 'mp-1' }, null],
    [{ programId: programId }, 'body must have exactly one of marketplaceToken, verificationToken'],
    [
      { programId: programId, marketplaceToken: jws, verificationToken: jws },
      'body must have exactly one of marketplaceToken, verificationToken',
    ],
    [
      { programId: programId, marketplaceToken: jws, verificationToken: null },
      'body must have exactly one of marketplaceToken, verificationToken',
    ],
    [{ programId: programId, verificationToken: null }, 'body.verificationToken must be string'],
    [{ programId: 'x', marketplaceToken: jws }, 'body.programId must match pattern "^[0-9a-f]{24}$"'],
    [{ marketplaceToken: jws }, 'body.programId is required'],
    [
      { programId: programId, marketplaceToken: 'x.y' },
      'body.marketplaceToken must match pattern "^[A-Za-z0-9_-]+\\\\.[A-Za-z0-9_-]+\\\\.[A-Za-z0-9_-]+$"',
    ],
    [{ programId: programId, marketplaceToken: 5 }, 'body.marketplaceToken must be string'],
    [
      { programId: programId, marketplaceToken: `a.${'b'.repeat(16384)}.c` },
      'body.marketplaceToken must NOT have more than 16384 characters',
    ],
    [
      { programId: programId, marketplaceToken: jws, trackingId: 'order\u0085' },
      'body.trackingId must not contain control characters',
    ],
    [
      { programId: programId, marketplaceToken: jws, trackingId: 'x'.repeat(257) },
      'body.trackingId must NOT have more than 256 characters',
    ],
    [
      { programId: programId, marketplaceToken: jws, x: 1 },
      'body has unexpected property x (allowed: programId, marketplaceToken, verificationToken, trackingId)',
    ],
    [[], 'body must have exactly one of marketplaceToken, verificationToken'],
    ['x', 'body must have exactly one of marketplaceToken, verificationToken'],
    [null, 'body must have exactly one of marketplaceToken, verificationToken'],
  ])('%#: %j is answered as before', (body, expected) => {
    const checked = checkBody(MarketplaceVerificationRequest, body);
    expect(checked.ok ? null : checked.problem).toBe(expected);
  });
});
