import { checkBody } from './body-check';
import { checkStepBody } from './verification-step-check';
import {
  checkMetadata,
  checkNewVerification,
  MarketplaceTokenRequest,
  MilitaryStatusRequest,
  SocialSecurityNumberRequest,
  tokenOf,
} from './verification-requests';
import { JoseSubject } from './verification-steps';

/**
 * The request bodies of the verification flow but the subjects (verification-subjects.test.ts), checked by
 * their definitions' schemas. The expected answers are those of the checks the schemas replaced, captured
 * from them before they were removed: the OpenAPI validator (validation/request-validator.ts) for the
 * military status and the social security number, and for the start's body with its metadata's shape read
 * afterwards (validation/subject-body.ts); that reader alone for PUT .../metadata, the marketplace token step
 * and the DriverLicense JWS.
 */
const jws = 'eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl';
const programId = 'ab'.repeat(12);
const map = (count: number) => Object.fromEntries([...Array(count).keys()].map((i) => [`k${i}`, 'v']));
const says = (checked: { ok: true } | { ok: false; problem: string }) =>
  checked.ok ? null : checked.problem;

describe('POST /verification', () => {
  it.each<[unknown, string | null]>([
    [{ programId: programId }, null],
    [
      {
        programId: programId,
        trackingId: 't-1',
        metadata: { order: 'A-1', 'utm.source': 'mail' },
        locale: 'fr-CA',
      },
      null,
    ],
    [{ programId: programId, metadata: map(51) }, null],
    [{ programId: programId, metadata: { 'a\u0000': 'v' } }, null],
    [{ programId: programId, metadata: { a: { b: 'c' } } }, 'body.metadata["a"] must be a string'],
    [{ programId: programId, metadata: ['a'] }, 'body.metadata must be an object of string values'],
    [{ programId: programId, metadata: null }, 'body.metadata must be an object of string values'],
    [
      JSON.parse('{"programId":"abababababababababababab","metadata":{"__proto__":"x"}}'),
      'body.metadata["__proto__"] is a reserved key',
    ],
    [
      { programId: programId, locale: 'en_US' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [{ programId: programId, locale: 7 }, 'body.locale must be string'],
    [{ programId: programId, locale: '' }, 'body.locale must NOT have fewer than 1 characters'],
    [
      { programId: programId, locale: 'en-US-x' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      { programId: programId, locale: 'en-abcdefgh-abcdefgh-abcdefgh-abcdefgh-x' },
      'body.locale must NOT have more than 35 characters',
    ],
    [
      { programId: programId, fingerprint: 'x' },
      'body has unexpected property fingerprint (allowed: programId, trackingId, metadata, locale)',
    ],
    [{ programId: 'nope' }, 'body.programId must match pattern "^[0-9a-f]{24}$"'],
    [
      { programId: programId, foo: 1 },
      'body has unexpected property foo (allowed: programId, trackingId, metadata, locale)',
    ],
    [{}, 'body.programId is required'],
    [
      { programId: programId, trackingId: 'x'.repeat(257) },
      'body.trackingId must NOT have more than 256 characters',
    ],
    [{ programId: programId, trackingId: 'x\u0000' }, 'body.trackingId must not contain control characters'],
    [{ programId: programId, metadata: 5, locale: 7 }, 'body.locale must be string'],
    [
      { programId: programId, metadata: 5, trackingId: 'x\u0000' },
      'body.trackingId must not contain control characters',
    ],
    [{ programId: 'nope', metadata: 5 }, 'body.programId must match pattern "^[0-9a-f]{24}$"'],
    [{ metadata: 5 }, 'body.programId is required'],
  ])('%#: %j is answered as before', (body, expected) => {
    expect(says(checkNewVerification(body))).toBe(expected);
  });

  it('leaves the metadata as sent, its sizes to the service', () => {
    const body = { programId, metadata: map(51), locale: 'EN-us' };
    expect(checkNewVerification(body)).toEqual({ ok: true, value: body });
  });
});

describe('PUT /verification/{verificationId}/metadata', () => {
  it.each<[unknown, string | null]>([
    [{}, null],
    [{ plan: 'team' }, null],
    [{ a: 1 }, 'body["a"] must be a string'],
    [{ a: { b: 'c' } }, 'body["a"] must be a string'],
    [['a'], 'body must be an object of string values'],
    ['x', 'body must be an object of string values'],
    [null, 'body must be an object of string values'],
    [JSON.parse('{"plan":"pro","__proto__":"x"}'), 'body["__proto__"] is a reserved key'],
    [{ 'a\u0000': 'v' }, null],
    [{ '': 'v' }, null],
    [{ k: 'v'.repeat(1025) }, null],
  ])('%#: %j is answered as before', (body, expected) => {
    expect(says(checkMetadata(body))).toBe(expected);
  });
});

describe('collectMarketplaceToken', () => {
  it.each<[unknown, string | null]>([
    [{ marketplaceToken: jws }, null],
    [{ verificationToken: ' eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl\n' }, null],
    [{ verificationToken: jws, marketplaceToken: null }, null],
    [{}, 'body must have exactly one of marketplaceToken, verificationToken'],
    [{ marketplaceToken: null }, 'body must have exactly one of marketplaceToken, verificationToken'],
    [
      { marketplaceToken: jws, verificationToken: jws },
      'body must have exactly one of marketplaceToken, verificationToken',
    ],
    [
      { marketplaceToken: jws, firstName: 'x' },
      "Unexpected property 'firstName'. Allowed keys: marketplaceToken, verificationToken",
    ],
    [
      { marketplaceToken: 42, firstName: 'x' },
      "Unexpected property 'firstName'. Allowed keys: marketplaceToken, verificationToken",
    ],
    [
      { marketplaceToken: 42, verificationToken: jws },
      'body must have exactly one of marketplaceToken, verificationToken',
    ],
    [
      { marketplaceToken: 42 },
      'body.marketplaceToken must be a compact JWS (header.payload.signature, at most 16 KiB)',
    ],
    [
      { verificationToken: 'x.y' },
      'body.verificationToken must be a compact JWS (header.payload.signature, at most 16 KiB)',
    ],
    [
      { marketplaceToken: 'aaa..ccc' },
      'body.marketplaceToken must be a compact JWS (header.payload.signature, at most 16 KiB)',
    ],
    [
      { marketplaceToken: `aaa.${'b'.repeat(16384)}.ccc` },
      'body.marketplaceToken must be a compact JWS (header.payload.signature, at most 16 KiB)',
    ],
    [[jws], 'body must be a JSON object'],
  ])('%#: %j is answered as before', (body, expected) => {
    expect(says(checkStepBody(MarketplaceTokenRequest, body, { keysFirst: true }))).toBe(expected);
  });

  it('takes the token under either name, trimmed', () => {
    for (const body of [
      { marketplaceToken: jws },
      { verificationToken: ` ${jws}\n`, marketplaceToken: null },
    ]) {
      const checked = checkStepBody(MarketplaceTokenRequest, body, { keysFirst: true });
      expect(checked.ok && tokenOf(checked.value)).toBe(jws);
    }
  });
});

describe('a DriverLicense subject as a compact JWS (application/jose)', () => {
  it.each<[string, string | null]>([
    [jws, null],
    ['eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl\n', null],
    ['aaa.bbb', 'body must be a compact JWS (header.payload.signature, at most 16 KiB)'],
    [
      'eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl.ddd',
      'body must be a compact JWS (header.payload.signature, at most 16 KiB)',
    ],
    ['aaa..ccc', 'body must be a compact JWS (header.payload.signature, at most 16 KiB)'],
    ['aaa=.bbb.ccc', 'body must be a compact JWS (header.payload.signature, at most 16 KiB)'],
    ['{"firstName":"Jane"}', 'body must be a compact JWS (header.payload.signature, at most 16 KiB)'],
    [`aaa.${'b'.repeat(16384)}.ccc`, 'body must be a compact JWS (header.payload.signature, at most 16 KiB)'],
    ['', 'body must be a compact JWS (header.payload.signature, at most 16 KiB)'],
  ])('%#: %j is answered as before', (body, expected) => {
    expect(says(checkStepBody(JoseSubject, body))).toBe(expected);
  });

  it('is taken trimmed', () => {
    expect(checkStepBody(JoseSubject, `${jws}\n`)).toEqual({ ok: true, value: jws });
  });
});

describe('collectMilitaryStatus and collectSocialSecurityNumber', () => {
  it.each<[unknown, string | null]>([
    [{ status: 'VETERAN' }, null],
    [{ status: 'X', y: 1 }, 'body has unexpected property y (allowed: status)'],
    [{}, 'body.status is required'],
    [{ status: 1 }, 'body.status must be string'],
    [{ status: 'VETERAN\u0000' }, 'body.status must not contain control characters'],
    [[1], 'body must be object'],
    [{ status: null }, 'body.status must be string'],
  ])('MilitaryStatusRequest %#: %j is answered as before', (body, expected) => {
    expect(says(checkBody(MilitaryStatusRequest, body))).toBe(expected);
  });

  it.each<[unknown, string | null]>([
    [{ socialSecurityNumber: '123-45-6789' }, null],
    [{}, 'body.socialSecurityNumber is required'],
    [{ socialSecurityNumber: '123\u0085' }, 'body.socialSecurityNumber must not contain control characters'],
    [{ socialSecurityNumber: 5, x: 1 }, 'body has unexpected property x (allowed: socialSecurityNumber)'],
  ])('SocialSecurityNumberRequest %#: %j is answered as before', (body, expected) => {
    expect(says(checkBody(SocialSecurityNumberRequest, body))).toBe(expected);
  });
});
