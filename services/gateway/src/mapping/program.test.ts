import { programsProgramV1 } from '@eligo/proto';
import { programCreateToProto, programPatchToProto, programToJson, themeToJson } from './program';
import { updateMaskPath } from './program-input';

const { Program, ProgramMode, OfferType, WebhookNotification } = programsProgramV1;
const accountId = 'a1'.repeat(12);
const publicJwk = '{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}';

describe('ProgramCreateRequest -> Program', () => {
  it('maps every setting, dates at UTC midnight or as given', () => {
    const program = programCreateToProto({
      accountId,
      name: 'Spring',
      segment: 'military',
      subSegments: ['activeDuty', 'veteran'],
      mode: 'live',
      startDate: '2030-01-15',
      endDate: '2030-06-01T12:30:00+02:00',
      offerType: 'staticCode',
      rewardCode: 'SPRING10',
      redirectUrl: 'https://shop.example/done',
      consolationRewardCode: 'SORRY5',
      minAge: 18,
      maxAge: 65,
      countries: ['US', 'CA'],
      maxRejections: 2,
      maxReviewTime: '20_MIN',
      estimatedReviewTime: 'A_FEW_MINUTES',
      organizationRules: { types: ['UNIVERSITY'], includeIds: [7] },
      theme: { intl: { locale: 'en-US', messages: { title: 'Hi' } }, customCss: 'a{}' },
      webhook: {
        callbackUri: 'https://hooks.example/x',
        notifierEventTypes: ['EXPIRATION', 'DOCUMENT_REJECTED'],
      },
      verificationLimit: { quantity: 2, days: 30 },
      subjectTokenKey: publicJwk,
      requireAccountTokenToCreate: true,
      embedOrigins: ['https://Shop.Example:443', 'http://localhost:3000'],
    });
    expect(program).toEqual(
      Program.fromPartial({
        accountId,
        name: 'Spring',
        segment: 'military',
        subSegments: ['activeDuty', 'veteran'],
        mode: ProgramMode.PROGRAM_MODE_LIVE,
        startDate: new Date('2030-01-15T00:00:00.000Z'),
        endDate: new Date('2030-06-01T10:30:00.000Z'),
        offerType: OfferType.OFFER_TYPE_STATIC_CODE,
        rewardCode: 'SPRING10',
        redirectUrl: 'https://shop.example/done',
        consolationRewardCode: 'SORRY5',
        minAge: 18,
        maxAge: 65,
        countries: ['US', 'CA'],
        documentReview: { maxRejections: 2, maxReviewTime: '20_MIN', estimatedReviewTime: 'A_FEW_MINUTES' },
        organizationRules: { types: ['UNIVERSITY'], countries: [], includeIds: [7], excludeIds: [] },
        theme: { intl: { locale: 'en-US', messages: { title: 'Hi' }, errorId: {} }, customCss: 'a{}' },
        webhook: {
          callbackUri: 'https://hooks.example/x',
          notifications: [
            WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
            WebhookNotification.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED,
          ],
        },
        verificationLimit: { quantity: 2, days: 30 },
        subjectTokenKey: publicJwk,
        requireAccountTokenToCreate: true,
        // As sent: the service normalises them.
        embedOrigins: ['https://Shop.Example:443', 'http://localhost:3000'],
      }),
    );
    // What the client sends is what the service reads.
    expect(Program.decode(Program.encode(program).finish())).toEqual(program);
  });

  it('leaves out what is absent or null, so the service applies its defaults', () => {
    const program = programCreateToProto({
      accountId,
      name: 'Min',
      segment: 'student',
      rewardCode: null,
      theme: null,
      startDate: null,
    });
    expect(program.mode).toBe(ProgramMode.PROGRAM_MODE_UNSPECIFIED);
    expect(program.offerType).toBe(OfferType.OFFER_TYPE_UNSPECIFIED);
    expect(program.rewardCode).toBeUndefined();
    expect(program.theme).toBeUndefined();
    expect(program.startDate).toBeUndefined();
    expect(program.documentReview).toBeUndefined();
    expect(program.webhook).toBeUndefined();
    expect(program.subjectTokenKey).toBe('');
    expect(program.embedOrigins).toEqual([]);
  });
});

describe('ProgramPatchRequest (merge patch) -> Program + update_mask', () => {
  it('names exactly the keys present, in snake_case', () => {
    const { program, updateMask } = programPatchToProto({
      name: 'New',
      redirectUrl: 'https://x.example',
      mode: 'live',
    });
    expect(updateMask).toEqual(['name', 'mode', 'redirect_url']);
    expect(program.name).toBe('New');
    expect(program.redirectUrl).toBe('https://x.example');
    expect(program.mode).toBe(ProgramMode.PROGRAM_MODE_LIVE);
  });

  it('clears a key given as null: named in the mask with the empty value', () => {
    const { program, updateMask } = programPatchToProto({
      redirectUrl: null,
      startDate: null,
      countries: null,
      webhook: null,
      verificationLimit: null,
      minAge: null,
      subjectTokenKey: null,
    });
    expect(updateMask).toEqual([
      'start_date',
      'redirect_url',
      'min_age',
      'countries',
      'webhook',
      'verification_limit',
      'subject_token_key',
    ]);
    expect(program.subjectTokenKey).toBe('');
    expect(program.redirectUrl).toBeUndefined();
    expect(program.startDate).toBeUndefined();
    expect(program.countries).toEqual([]);
    expect(program.webhook).toBeUndefined();
    expect(program.verificationLimit).toBeUndefined();
    expect(program.minAge).toBeUndefined();
  });

  it('keeps the default of 3 rejections when a create names only review times', () => {
    const created = programCreateToProto({
      accountId: 'a',
      name: 'n',
      segment: 'student',
      maxReviewTime: '2_HRS',
    });
    expect(created.documentReview).toEqual({
      maxRejections: 3,
      maxReviewTime: '2_HRS',
      estimatedReviewTime: '',
    });
  });

  it('names each review key by its own sub-path, so the stored others are kept by the service', () => {
    const { program, updateMask } = programPatchToProto({ maxRejections: 5 });
    expect(updateMask).toEqual(['document_review.max_rejections']);
    expect(program.documentReview?.maxRejections).toBe(5);
    const cleared = programPatchToProto({ maxReviewTime: null, name: 'x' });
    expect(cleared.updateMask).toEqual(['name', 'document_review.max_review_time']);
    expect(cleared.program.documentReview?.maxReviewTime).toBe('');
  });

  it('replaces objects as a whole', () => {
    const { program, updateMask } = programPatchToProto({
      theme: { customCss: 'b{}' },
      organizationRules: {},
    });
    expect(updateMask).toEqual(['organization_rules', 'theme']);
    expect(program.theme).toEqual({
      intl: { locale: '', messages: {}, errorId: {}, locales: {} },
      customCss: 'b{}',
    });
    expect(program.organizationRules).toEqual({ types: [], countries: [], includeIds: [], excludeIds: [] });
  });

  it('sets a webhook with its notifications as a whole, none when notifierEventTypes is left out', () => {
    const { program, updateMask } = programPatchToProto({
      webhook: { callbackUri: 'https://hooks.example/y', notifierEventTypes: ['MAX_DOC_UPLOAD_ATTEMPTS'] },
    });
    expect(updateMask).toEqual(['webhook']);
    expect(program.webhook).toEqual({
      callbackUri: 'https://hooks.example/y',
      createdAt: undefined,
      notifications: [WebhookNotification.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS],
    });
    const plain = programPatchToProto({ webhook: { callbackUri: 'https://hooks.example/y' } });
    expect(plain.program.webhook?.notifications).toEqual([]);
  });

  it('sets and clears the creation policy through require_account_token_to_create', () => {
    const on = programPatchToProto({ requireAccountTokenToCreate: true });
    expect([on.updateMask, on.program.requireAccountTokenToCreate]).toEqual([
      ['require_account_token_to_create'],
      true,
    ]);
    const cleared = programPatchToProto({ requireAccountTokenToCreate: null });
    expect([cleared.updateMask, cleared.program.requireAccountTokenToCreate]).toEqual([
      ['require_account_token_to_create'],
      false,
    ]);
  });

  it('sets, replaces and clears the embed origins through embed_origins (null and [] alike)', () => {
    const set = programPatchToProto({ embedOrigins: ['https://shop.example', 'http://127.0.0.1:5173'] });
    expect([set.updateMask, set.program.embedOrigins]).toEqual([
      ['embed_origins'],
      ['https://shop.example', 'http://127.0.0.1:5173'],
    ]);
    for (const none of [null, []]) {
      const cleared = programPatchToProto({ embedOrigins: none });
      expect([cleared.updateMask, cleared.program.embedOrigins]).toEqual([['embed_origins'], []]);
    }
  });

  it('sets the subject token key through subject_token_key', () => {
    const { program, updateMask } = programPatchToProto({ subjectTokenKey: publicJwk });
    expect(updateMask).toEqual(['subject_token_key']);
    expect(program.subjectTokenKey).toBe(publicJwk);
  });

  it('never sends an empty mask (it would mean "replace everything")', () => {
    expect(() => programPatchToProto({})).toThrow(/at least one/);
  });

  it.each([
    ['subSegments', 'sub_segments'],
    ['offerType', 'offer_type'],
    ['consolationRewardCode', 'consolation_reward_code'],
    ['verificationLimit', 'verification_limit'],
    ['subjectTokenKey', 'subject_token_key'],
    ['embedOrigins', 'embed_origins'],
    ['estimatedReviewTime', 'document_review.estimated_review_time'],
    ['maxRejections', 'document_review.max_rejections'],
  ] as const)('%s -> %s', (key, path) => {
    expect(updateMaskPath(key)).toBe(path);
  });
});

describe('Program -> program configuration JSON', () => {
  const stored = Program.fromPartial({
    programId: 'b2'.repeat(12),
    accountId,
    name: 'Spring',
    segment: 'student',
    subSegments: ['university'],
    mode: ProgramMode.PROGRAM_MODE_TEST,
    startDate: new Date('2030-01-15T00:00:00.000Z'),
    offerType: OfferType.OFFER_TYPE_REWARD_POOL,
    rewardCodesRemaining: 42,
    minAge: 16,
    countries: ['US'],
    documentReview: { maxRejections: 3, maxReviewTime: '', estimatedReviewTime: 'A_FEW_HOURS' },
    organizationRules: { types: [], countries: ['US'], includeIds: [], excludeIds: [9] },
    theme: {
      intl: {
        locale: 'en',
        messages: { a: 'b' },
        errorId: { noProgram: 'Gone' },
        locales: { 'fr-FR': { messages: { a: 'c' }, errorId: {} } },
      },
      customCss: '',
    },
    webhook: { callbackUri: 'https://hooks.example/x', createdAt: new Date(1_700_000_000_000) },
    verificationLimit: { quantity: 1, days: 7 },
    subjectTokenKey: publicJwk,
    requireAccountTokenToCreate: true,
    embedOrigins: ['https://shop.example', 'http://localhost:3000'],
    createdAt: new Date(1_600_000_000_000),
    updatedAt: new Date(1_650_000_000_000),
  });

  it('gives every field, null where the proto field is unset or empty', () => {
    expect(programToJson(stored)).toEqual({
      programId: 'b2'.repeat(12),
      accountId,
      name: 'Spring',
      segment: 'student',
      subSegments: ['university'],
      mode: 'test',
      startDate: '2030-01-15T00:00:00.000Z',
      endDate: null,
      offerType: 'rewardPool',
      rewardCode: null,
      rewardCodesRemaining: 42,
      redirectUrl: null,
      consolationRewardCode: null,
      minAge: 16,
      maxAge: null,
      countries: ['US'],
      maxRejections: 3,
      maxReviewTime: null,
      estimatedReviewTime: 'A_FEW_HOURS',
      organizationRules: { types: [], countries: ['US'], includeIds: [], excludeIds: [9] },
      theme: {
        intl: {
          locale: 'en',
          messages: { a: 'b' },
          errorId: { noProgram: 'Gone' },
          locales: { 'fr-FR': { messages: { a: 'c' }, errorId: {} } },
        },
        customCss: '',
      },
      webhook: { callbackUri: 'https://hooks.example/x', notifierEventTypes: [], created: 1_700_000_000_000 },
      verificationLimit: { quantity: 1, days: 7 },
      subjectTokenKey: publicJwk,
      requireAccountTokenToCreate: true,
      embedOrigins: ['https://shop.example', 'http://localhost:3000'],
      instantMatch: { sources: [], http: null, emailLoop: false },
      created: 1_600_000_000_000,
      updated: 1_650_000_000_000,
    });
  });

  it('gives the instant-match sources and URL, never the secret', () => {
    const { InstantSourceType } = programsProgramV1;
    const json = programToJson(
      Program.fromPartial({
        instantMatch: {
          sources: [
            { type: InstantSourceType.INSTANT_SOURCE_TYPE_HTTP, subSegments: [] },
            { type: InstantSourceType.INSTANT_SOURCE_TYPE_LIST, subSegments: ['employee'] },
          ],
          http: { url: 'https://hr.example/check', secret: 'whsec_x', sealedSecret: Buffer.from('sealed') },
          emailLoop: true,
        },
      }),
    );
    expect(json.instantMatch).toEqual({
      sources: [
        { type: 'http', subSegments: [] },
        { type: 'list', subSegments: ['employee'] },
      ],
      http: { url: 'https://hr.example/check' },
      emailLoop: true,
    });
  });

  it('shows the signing secret only when the reply carried one, and null webhook/limit/key when unset', () => {
    expect(programToJson(stored, 'whsec_1').webhook).toEqual({
      callbackUri: 'https://hooks.example/x',
      notifierEventTypes: [],
      created: 1_700_000_000_000,
      signingSecret: 'whsec_1',
    });
    const bare = programToJson(
      Program.fromPartial({
        ...stored,
        webhook: undefined,
        verificationLimit: undefined,
        subjectTokenKey: '',
        embedOrigins: [],
      }),
      'x',
    );
    expect(bare.embedOrigins).toEqual([]);
    expect(bare.webhook).toBeNull();
    expect(bare.verificationLimit).toBeNull();
    expect(bare.subjectTokenKey).toBeNull();
    expect(programToJson(Program.fromPartial({ ...stored, mode: ProgramMode.PROGRAM_MODE_LIVE })).mode).toBe(
      'live',
    );
  });

  it('names the notifications the webhook opted in to without their prefix, leaving out unknown ones', () => {
    const webhook = programToJson(
      Program.fromPartial({
        ...stored,
        webhook: {
          callbackUri: 'https://hooks.example/x',
          createdAt: new Date(1_700_000_000_000),
          notifications: [
            WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
            99 as programsProgramV1.WebhookNotification,
            WebhookNotification.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED,
            WebhookNotification.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS,
          ],
        },
      }),
    ).webhook;
    expect(webhook).toEqual({
      callbackUri: 'https://hooks.example/x',
      notifierEventTypes: ['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'],
      created: 1_700_000_000_000,
    });
  });

  it('maps a theme with nothing set to empty values', () => {
    expect(themeToJson(undefined)).toEqual({
      intl: { locale: '', messages: {}, errorId: {}, locales: {} },
      customCss: '',
    });
  });
});
