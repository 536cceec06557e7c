import { assertNotClaimedByAnother, leaseEnd, liveClaim, parseHolder } from './claim';

const A = `staff:${'a1'.repeat(12)}`;
const B = `staff:${'b2'.repeat(12)}`;
const now = new Date('2025-05-01T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('parseHolder', () => {
  it.each(['operator', A, B])('takes %s', (value) => {
    expect(parseHolder(value)).toBe(value);
  });

  it.each([
    '',
    'staff',
    'test-mode',
    'staff:',
    `staff:${'A1'.repeat(12)}`,
    `staff:${'a'.repeat(23)}`,
    ' operator',
  ])('refuses %j, naming the field', (value) => {
    expect(() => parseHolder(value, 'reader')).toThrow(
      expect.objectContaining({ kind: 'invalidArgument', message: expect.stringContaining('reader') }),
    );
  });
});

describe('liveClaim', () => {
  it('is the claim while its lease runs, nothing once it ended or when there is none', () => {
    expect(liveClaim({ claimedBy: A, claimExpiresAt: at(1) }, now)).toEqual({ holder: A, expiresAt: at(1) });
    expect(liveClaim({ claimedBy: A, claimExpiresAt: now }, now)).toBeUndefined();
    expect(liveClaim({ claimedBy: A, claimExpiresAt: at(-1) }, now)).toBeUndefined();
    expect(liveClaim({ claimedBy: null, claimExpiresAt: null }, now)).toBeUndefined();
  });
});

describe('assertNotClaimedByAnother', () => {
  it('lets anyone act on a review nobody holds, and the holder on its own', () => {
    expect(() => assertNotClaimedByAnother({ claimedBy: null, claimExpiresAt: null }, B, now)).not.toThrow();
    expect(() => assertNotClaimedByAnother({ claimedBy: A, claimExpiresAt: at(-1) }, B, now)).not.toThrow();
    expect(() => assertNotClaimedByAnother({ claimedBy: A, claimExpiresAt: at(5000) }, A, now)).not.toThrow();
  });

  it.each([B, 'operator', 'staff'])(
    'refuses %s while another holder’s lease runs (reviewClaimed)',
    (actor) => {
      expect(() => assertNotClaimedByAnother({ claimedBy: A, claimExpiresAt: at(5000) }, actor, now)).toThrow(
        expect.objectContaining({
          kind: 'failedPrecondition',
          reason: 'reviewClaimed',
          message: `Another reviewer has claimed this review until ${at(5000).toISOString()}`,
        }),
      );
    },
  );
});

it('leases run from now', () => {
  expect(leaseEnd(now, 300_000)).toEqual(at(300_000));
});
