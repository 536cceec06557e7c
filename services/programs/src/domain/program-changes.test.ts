import { expectRejectedInvalid, rejected } from '../../test/domain-errors';
import { ecP256 } from '../../test/keys';
import { defaultDocumentReview, emptyOrganizationRules, type Program } from './program';
import {
  planUpdate,
  settingsForCreate,
  settingsOf,
  UPDATABLE_PATHS,
  type ProgramInput,
} from './program-changes';
import { emptyTheme } from './theme';
import { noInstantMatch } from './instant-match';

function input(overrides: Partial<ProgramInput> = {}): ProgramInput {
  return {
    accountId: 'a'.repeat(24),
    name: '',
    segment: '',
    subSegments: [],
    mode: undefined,
    startDate: null,
    endDate: null,
    offerType: undefined,
    rewardCode: null,
    redirectUrl: null,
    consolationRewardCode: null,
    minAge: null,
    maxAge: null,
    countries: [],
    documentReview: null,
    organizationRules: null,
    theme: null,
    webhook: null,
    verificationLimit: null,
    subjectTokenKey: null,
    requireAccountTokenToCreate: false,
    embedOrigins: [],
    instantMatch: null,
    ...overrides,
  };
}

function stored(overrides: Partial<Program> = {}): Program {
  return {
    id: 'b'.repeat(24),
    accountId: 'a'.repeat(24),
    name: 'Stored',
    segment: 'senior',
    subSegments: [],
    mode: 'LIVE',
    startDate: null,
    endDate: null,
    offerType: 'STATIC_CODE',
    rewardCode: 'CODE',
    redirectUrl: 'https://a.example.com',
    consolationRewardCode: null,
    minAge: 60,
    maxAge: null,
    countries: ['US'],
    documentReview: { maxRejections: 5, maxReviewTime: '2_MIN', estimatedReviewTime: '' },
    organizationRules: emptyOrganizationRules(),
    theme: { ...emptyTheme(), locale: 'de' },
    webhook: null,
    verificationLimit: null,
    subjectTokenKey: null,
    requireAccountTokenToCreate: false,
    embedOrigins: [],
    instantMatch: noInstantMatch(),
    instantSourceSealedSecret: null,
    rewardCodesRemaining: 0,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  };
}

describe('settingsForCreate', () => {
  it('applies the defaults: test mode, no-code offer, 3 rejections, empty rules and theme', async () => {
    const { settings, webhook } = await settingsForCreate(input({ name: 'New', segment: 'student' }));
    expect(settings).toMatchObject({
      mode: 'TEST',
      offerType: 'NO_CODE',
      documentReview: defaultDocumentReview(),
      organizationRules: emptyOrganizationRules(),
      theme: emptyTheme(),
      embedOrigins: [],
    });
    expect(webhook).toBeNull();
  });

  it('keeps given values and the webhook, its notifications folded and sorted', async () => {
    const { settings, webhook } = await settingsForCreate(
      input({
        name: 'New',
        segment: 'student',
        mode: 'LIVE',
        webhook: {
          callbackUri: 'https://h.example.com',
          notifications: ['EXPIRATION', 'DOCUMENT_REJECTED', 'EXPIRATION'],
        },
      }),
    );
    expect(settings.mode).toBe('LIVE');
    expect(webhook).toEqual({
      callbackUri: 'https://h.example.com',
      notifications: ['DOCUMENT_REJECTED', 'EXPIRATION'],
    });
  });

  it('refuses an unknown notification with the problems of the settings', async () => {
    await expectRejectedInvalid(
      settingsForCreate(
        input({
          name: '',
          segment: 'student',
          webhook: { callbackUri: 'https://h.example.com', notifications: ['UNSPECIFIED'] },
        }),
      ),
      'webhook.notifications: "UNSPECIFIED" is not a webhook notification; name: is required',
    );
  });
});

describe('planUpdate', () => {
  it('takes masked fields from the request and keeps the others', async () => {
    const plan = await planUpdate(
      stored(),
      input({ name: 'New name', countries: ['fr'], redirectUrl: 'https://x.example.com' }),
      ['name', 'countries'],
    );
    expect(plan.settings).toMatchObject({
      name: 'New name',
      countries: ['FR'],
      redirectUrl: 'https://a.example.com',
    });
    expect(plan.webhook).toEqual({ kind: 'keep' });
  });

  it.each<[string, Partial<Program>]>([
    ['redirect_url', { redirectUrl: null }],
    ['min_age', { minAge: null }],
    ['mode', { mode: 'TEST' }],
    ['document_review', { documentReview: defaultDocumentReview() }],
    ['theme', { theme: emptyTheme() }],
    ['countries', { countries: [] }],
  ])('clears %s when the request leaves it unset (or resets it to the default)', async (path, expected) => {
    expect((await planUpdate(stored(), input(), [path])).settings).toMatchObject(expected);
  });

  it('updates one review setting through its sub-path, keeping the stored others', async () => {
    const current = stored({
      documentReview: { maxRejections: 5, maxReviewTime: '2_HRS', estimatedReviewTime: 'A_FEW_HOURS' },
    });
    const request = input({
      documentReview: { maxRejections: 0, maxReviewTime: '20_MIN', estimatedReviewTime: '' },
    });
    expect(
      (await planUpdate(current, request, ['document_review.max_rejections'])).settings.documentReview,
    ).toEqual({
      maxRejections: 0,
      maxReviewTime: '2_HRS',
      estimatedReviewTime: 'A_FEW_HOURS',
    });
    expect(
      (
        await planUpdate(current, request, [
          'document_review.max_review_time',
          'document_review.estimated_review_time',
        ])
      ).settings.documentReview,
    ).toEqual({ maxRejections: 5, maxReviewTime: '20_MIN', estimatedReviewTime: '' });
    // Unset in the request: back to the default (3 rejections, no review times).
    expect(
      (await planUpdate(current, input(), ['document_review.max_rejections'])).settings.documentReview
        .maxRejections,
    ).toBe(3);
  });

  it('offer_type unset resets to no code, which then refuses the stored static code', async () => {
    await expectRejectedInvalid(
      planUpdate(stored(), input(), ['offer_type']),
      'rewardCode: is allowed only for a static-code offer',
    );
    expect((await planUpdate(stored(), input(), ['offer_type', 'reward_code'])).settings).toMatchObject({
      offerType: 'NO_CODE',
      rewardCode: null,
    });
  });

  it.each<[string, string[], Partial<ProgramInput>, string]>([
    ['an empty mask', [], {}, 'updateMask: name at least one field to update'],
    ['an unknown path', ['colour'], {}, 'updateMask: "colour" is not a field of Program that can be updated'],
    [
      'a camelCase path',
      ['redirectUrl'],
      {},
      'updateMask: "redirectUrl" is not a field of Program that can be updated',
    ],
    ['program_id', ['program_id'], {}, 'updateMask: program_id cannot be updated'],
    ['account_id', ['account_id'], {}, 'updateMask: account_id cannot be updated'],
    ['created_at', ['created_at'], {}, 'updateMask: created_at cannot be updated'],
    ['updated_at', ['updated_at'], {}, 'updateMask: updated_at cannot be updated'],
    [
      'reward_codes_remaining',
      ['reward_codes_remaining'],
      {},
      'updateMask: reward_codes_remaining cannot be updated',
    ],
    [
      'a different segment',
      ['segment'],
      { segment: 'age' },
      'segment: cannot be changed after the program is created (it is senior)',
    ],
    [
      'a cleared segment',
      ['segment'],
      {},
      'segment: cannot be changed after the program is created (it is senior); segment: "" is not a segment',
    ],
    ['a merged result create would refuse', ['max_age'], { maxAge: 50 }, 'maxAge: must not be below minAge'],
  ])('refuses %s', async (_case, mask, fields, message) => {
    await expectRejectedInvalid(planUpdate(stored(), input(fields), mask), message);
  });

  it('accepts the segment path with the same segment', async () => {
    expect((await planUpdate(stored(), input({ segment: 'senior' }), ['segment'])).settings.segment).toBe(
      'senior',
    );
  });

  it('accepts exactly the paths of the contract', () => {
    expect([...UPDATABLE_PATHS].sort()).toEqual(
      [
        'name',
        'segment',
        'sub_segments',
        'mode',
        'start_date',
        'end_date',
        'offer_type',
        'reward_code',
        'redirect_url',
        'consolation_reward_code',
        'min_age',
        'max_age',
        'countries',
        'document_review',
        'document_review.max_rejections',
        'document_review.max_review_time',
        'document_review.estimated_review_time',
        'organization_rules',
        'theme',
        'webhook',
        'verification_limit',
        'subject_token_key',
        'require_account_token_to_create',
        'embed_origins',
        'instant_match',
      ].sort(),
    );
  });

  it.each(UPDATABLE_PATHS)('updates %s with the stored value without complaint', async (path) => {
    const current = stored();
    const same = input({
      ...settingsOf(current),
      theme: current.theme,
      verificationLimit: null,
      webhook: null,
      instantMatch: { ...settingsOf(current).instantMatch, secret: '' },
    });
    expect((await planUpdate(current, same, [path])).settings).toEqual(settingsOf(current));
  });

  it('sets a webhook where none exists, refuses one where one exists, clears it when unset', async () => {
    const hook = {
      callbackUri: 'https://h.example.com/x',
      notifications: ['EXPIRATION', 'DOCUMENT_REJECTED'],
    };
    expect((await planUpdate(stored(), input({ webhook: hook }), ['webhook'])).webhook).toEqual({
      kind: 'set',
      webhook: { callbackUri: hook.callbackUri, notifications: ['DOCUMENT_REJECTED', 'EXPIRATION'] },
    });
    const existing = stored({
      webhook: {
        callbackUri: 'https://old.example.com',
        notifications: ['EXPIRATION'],
        createdAt: new Date(0),
      },
    });
    const err = await rejected(planUpdate(existing, input({ webhook: hook }), ['webhook']));
    expect({ kind: err.kind, errorIds: err.errorIds }).toEqual({
      kind: 'conflict',
      errorIds: ['webhookAlreadyExists'],
    });
    expect((await planUpdate(existing, input(), ['webhook'])).webhook).toEqual({ kind: 'clear' });
    expect((await planUpdate(stored(), input(), ['webhook'])).webhook).toEqual({ kind: 'keep' });
    expect((await planUpdate(existing, input({ name: 'x' }), ['name'])).webhook).toEqual({ kind: 'keep' });
  });

  it('validates the notifications of a webhook set through the mask, and ignores them when not masked', async () => {
    const bad = { callbackUri: 'https://h.example.com/x', notifications: ['DOCUMENT_REJECTED', '9'] };
    await expectRejectedInvalid(
      planUpdate(stored(), input({ webhook: bad }), ['webhook']),
      'webhook.notifications: "9" is not a webhook notification',
    );
    expect((await planUpdate(stored(), input({ name: 'x', webhook: bad }), ['name'])).webhook).toEqual({
      kind: 'keep',
    });
  });

  it('sets, replaces and clears the subject token key through subject_token_key, validating it', async () => {
    const first = ecP256();
    const second = ecP256();
    const withKey = stored({ subjectTokenKey: first.publicJwk });
    expect(
      (await planUpdate(stored(), input({ subjectTokenKey: first.publicJwk }), ['subject_token_key']))
        .settings.subjectTokenKey,
    ).toBe(first.publicJwk);
    expect(
      (await planUpdate(withKey, input({ subjectTokenKey: second.publicPem }), ['subject_token_key']))
        .settings.subjectTokenKey,
    ).toBe(second.publicPem.trim());
    expect((await planUpdate(withKey, input(), ['subject_token_key'])).settings.subjectTokenKey).toBeNull();
    // Another path leaves it alone.
    expect((await planUpdate(withKey, input({ name: 'x' }), ['name'])).settings.subjectTokenKey).toBe(
      first.publicJwk,
    );
    await expectRejectedInvalid(
      planUpdate(withKey, input({ subjectTokenKey: first.privatePem }), ['subject_token_key']),
      'subjectTokenKey: must be a public key, not a private one',
    );
  });

  it('sets, normalises and clears the embed origins through embed_origins, validating them', async () => {
    const withOrigins = stored({ embedOrigins: ['https://shop.example'] });
    const set = await planUpdate(
      stored(),
      input({ embedOrigins: ['https://Shop.Example:443', 'http://localhost:3000'] }),
      ['embed_origins'],
    );
    expect(set.settings.embedOrigins).toEqual(['https://shop.example', 'http://localhost:3000']);
    // Unset (empty) clears them; another path leaves them alone.
    expect((await planUpdate(withOrigins, input(), ['embed_origins'])).settings.embedOrigins).toEqual([]);
    expect((await planUpdate(withOrigins, input({ name: 'x' }), ['name'])).settings.embedOrigins).toEqual([
      'https://shop.example',
    ]);
    await expectRejectedInvalid(
      planUpdate(withOrigins, input({ embedOrigins: ['https://*.example.com'] }), ['embed_origins']),
      'embedOrigins: "https://*.example.com" is a wildcard, which is not allowed in this version: list each ' +
        'origin (https://shop.example.com)',
    );
  });

  it('sets a verification limit where none exists, refuses one where one exists, clears it when unset', async () => {
    const limit = { quantity: 2, days: 3 };
    expect(
      (await planUpdate(stored(), input({ verificationLimit: limit }), ['verification_limit'])).settings
        .verificationLimit,
    ).toEqual(limit);
    const existing = stored({ verificationLimit: { quantity: 1, days: 1 } });
    const err = await rejected(
      planUpdate(existing, input({ verificationLimit: limit }), ['verification_limit']),
    );
    expect({ kind: err.kind, errorIds: err.errorIds }).toEqual({
      kind: 'conflict',
      errorIds: ['verificationLimitAlreadyExists'],
    });
    expect(
      (await planUpdate(existing, input(), ['verification_limit'])).settings.verificationLimit,
    ).toBeNull();
  });
});

describe('instant-match sources', () => {
  const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
  const http = (url: string, key = secret) => ({
    sources: [
      { type: 'LIST', subSegments: [] },
      { type: 'HTTP', subSegments: [] },
    ],
    httpUrl: url,
    secret: key,
  });
  const employee = (instantMatch: ProgramInput['instantMatch']) =>
    input({ name: 'P', segment: 'employee', instantMatch });

  it('takes sources in order with an HTTP endpoint and its secret, to be sealed', async () => {
    const { settings, sourceSecret } = await settingsForCreate(
      employee(http('https://hr.example.com/check')),
    );
    expect(settings.instantMatch).toEqual({
      sources: [
        { type: 'LIST', subSegments: [] },
        { type: 'HTTP', subSegments: [] },
      ],
      httpUrl: 'https://hr.example.com/check',
      emailLoop: false,
    });
    expect(sourceSecret).toEqual({ kind: 'set', secret });
  });

  it('offers the email loop only when asked to, with or without sources', async () => {
    const loop = { sources: [], httpUrl: null, secret: '', emailLoop: true };
    const { settings, sourceSecret } = await settingsForCreate(employee(loop));
    expect(settings.instantMatch).toEqual({ sources: [], httpUrl: null, emailLoop: true });
    expect(sourceSecret).toEqual({ kind: 'keep' });
  });

  it('has none by default', async () => {
    const { settings, sourceSecret } = await settingsForCreate(employee(null));
    expect(settings.instantMatch).toEqual(noInstantMatch());
    expect(sourceSecret).toEqual({ kind: 'keep' });
  });

  it.each([
    [
      'an unknown type',
      { sources: [{ type: '7', subSegments: [] }], httpUrl: null, secret: '' },
      'instantMatch.sources[0].type',
    ],
    [
      'a type twice',
      {
        sources: [
          { type: 'LIST', subSegments: [] },
          { type: 'LIST', subSegments: [] },
        ],
        httpUrl: null,
        secret: '',
      },
      'instantMatch.sources[1].type',
    ],
    [
      'a sub-segment of another segment',
      { sources: [{ type: 'LIST', subSegments: ['activeDuty'] }], httpUrl: null, secret: '' },
      'instantMatch.sources[0].subSegments',
    ],
    [
      'an HTTP source without URL',
      { sources: [{ type: 'HTTP', subSegments: [] }], httpUrl: null, secret },
      'instantMatch.http.url',
    ],
    [
      'a URL without HTTP source',
      { sources: [], httpUrl: 'https://hr.example.com', secret: '' },
      'instantMatch.http',
    ],
    ['a private address', http('http://10.0.0.5/check'), 'instantMatch.http.url'],
    ['a URL with credentials', http('https://u:p@hr.example.com/'), 'instantMatch.http.url'],
    ['no secret', http('https://hr.example.com/', ''), 'instantMatch.http.secret'],
    [
      'a secret of the wrong form',
      http('https://hr.example.com/', 'whsec_c2hvcnQ='),
      'instantMatch.http.secret',
    ],
  ])('refuses %s', async (_, instantMatch, field) => {
    const err = await rejected(settingsForCreate(employee(instantMatch)));
    expect([err.kind, err.errorIds]).toEqual(['invalidArgument', ['invalidRequest']]);
    expect(err.message.startsWith(`${field}: `)).toBe(true);
  });

  it('keeps the stored secret while the URL stays, requires a new one with a new URL, clears it without HTTP', async () => {
    const current = stored({
      segment: 'employee',
      minAge: null,
      instantMatch: { sources: [{ type: 'HTTP', subSegments: [] }], httpUrl: 'https://hr.example.com/a' },
      instantSourceSealedSecret: Buffer.from('sealed'),
    });
    const mask = ['instant_match'];
    const same = {
      sources: [{ type: 'HTTP', subSegments: [] }],
      httpUrl: 'https://hr.example.com/a',
      secret: '',
    };
    expect((await planUpdate(current, input({ instantMatch: same }), mask)).sourceSecret).toEqual({
      kind: 'keep',
    });
    await expectRejectedInvalid(
      planUpdate(current, input({ instantMatch: { ...same, httpUrl: 'https://other.example.com/' } }), mask),
      'instantMatch.http.secret: is required with a new HTTP source URL',
    );
    const cleared = await planUpdate(current, input({ instantMatch: null }), mask);
    expect(cleared.sourceSecret).toEqual({ kind: 'clear' });
    expect(cleared.settings.instantMatch).toEqual(noInstantMatch());
    // Another path leaves the sources and the secret as they are.
    const other = await planUpdate(current, input({ name: 'Renamed' }), ['name']);
    expect(other.sourceSecret).toEqual({ kind: 'keep' });
    // Settings stored before the email loop existed read as not offering it.
    expect(other.settings.instantMatch).toEqual({ ...current.instantMatch, emailLoop: false });
  });
});
