import { status } from '@grpc/grpc-js';
import { programsProgramV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  OfferType,
  outboxEvents,
  programDraft,
  ProgramMode,
  startPrograms,
  WebhookNotification,
  type Harness,
} from './support';

describe('CreateProgram and GetProgram', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const programCount = async (): Promise<number> => {
    const [row] = (await h.db.withSchema('programs').table('programs').count({ n: '*' })) as { n: string }[];
    return Number(row!.n);
  };

  it('GetInfo answers the build information of the programs module', async () => {
    const { buildInfo } = await h.client.unary('getInfo', {});
    expect(buildInfo!.module).toBe('programs');
  });

  it('creates a program in test mode with no-code offer and default document review', async () => {
    const program = await newProgram(h.client, accountId, { name: '  Students 2026 ' });
    expect(program.programId).toMatch(/^[0-9a-f]{24}$/);
    expect(program).toMatchObject({
      accountId,
      name: 'Students 2026',
      segment: 'student',
      subSegments: [],
      mode: ProgramMode.PROGRAM_MODE_TEST,
      offerType: OfferType.OFFER_TYPE_NO_CODE,
      rewardCodesRemaining: 0,
      countries: [],
      documentReview: { maxRejections: 3, maxReviewTime: '', estimatedReviewTime: '' },
      organizationRules: { types: [], countries: [], includeIds: [], excludeIds: [] },
      theme: { intl: { locale: '', messages: {}, errorId: {}, locales: {} }, customCss: '' },
      webhook: undefined,
      verificationLimit: undefined,
      rewardCode: undefined,
      redirectUrl: undefined,
    });
    expect(program.createdAt).toBeInstanceOf(Date);
    expect(program.updatedAt).toBeInstanceOf(Date);
    const events = await outboxEvents(h.db, program.programId);
    expect(events.map((e) => e.type)).toEqual(['eligo.programs.v1.ProgramCreated']);
  });

  it('stores every setting and reads it back, normalised, ignoring the output-only fields', async () => {
    const start = new Date('2030-01-01T00:00:00Z');
    const end = new Date('2030-06-01T00:00:00Z');
    const { program } = await h.client.unary('createProgram', {
      program: programDraft(accountId, {
        programId: 'ffffffffffffffffffffffff',
        rewardCodesRemaining: 99,
        createdAt: new Date('2000-01-01'),
        name: 'Seniors',
        segment: 'senior',
        mode: ProgramMode.PROGRAM_MODE_LIVE,
        startDate: start,
        endDate: end,
        offerType: OfferType.OFFER_TYPE_STATIC_CODE,
        rewardCode: 'SENIOR-10',
        redirectUrl: 'https://shop.example.com/landing?x=1#top',
        consolationRewardCode: 'THANKS5',
        minAge: 60,
        maxAge: 120,
        countries: ['us', 'CA'],
        documentReview: { maxRejections: 5, maxReviewTime: '24_HRS', estimatedReviewTime: 'A_FEW_HOURS' },
        organizationRules: { types: ['MEDICAL'], countries: ['gb'], includeIds: [1, 2], excludeIds: [3] },
        theme: {
          intl: {
            locale: 'fr-ca',
            messages: { 'form.title': 'Bonjour' },
            errorId: { noProgram: 'Offre inconnue' },
            locales: {},
          },
          customCss: 'body { color: red; }',
        },
        verificationLimit: { quantity: 2, days: 30 },
      }),
    });
    expect(program!.programId).not.toBe('ffffffffffffffffffffffff');
    expect(program!.createdAt!.getFullYear()).toBeGreaterThan(2000);
    const { program: read } = await h.client.unary('getProgram', {
      programId: program!.programId,
      accountId,
    });
    expect(read).toEqual(program);
    expect(read).toMatchObject({
      segment: 'senior',
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      startDate: start,
      endDate: end,
      offerType: OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SENIOR-10',
      rewardCodesRemaining: 0,
      redirectUrl: 'https://shop.example.com/landing?x=1#top',
      consolationRewardCode: 'THANKS5',
      minAge: 60,
      maxAge: 120,
      countries: ['US', 'CA'],
      documentReview: { maxRejections: 5, maxReviewTime: '24_HRS', estimatedReviewTime: 'A_FEW_HOURS' },
      organizationRules: { types: ['MEDICAL'], countries: ['GB'], includeIds: [1, 2], excludeIds: [3] },
      theme: {
        intl: {
          locale: 'fr-CA',
          messages: { 'form.title': 'Bonjour' },
          errorId: { noProgram: 'Offre inconnue' },
        },
        customCss: 'body { color: red; }',
      },
      verificationLimit: { quantity: 2, days: 30 },
    });
  });

  it.each<[string, Partial<programsProgramV1.Program>, string]>([
    ['an unknown segment', { segment: 'astronaut' }, 'segment: "astronaut" is not a segment'],
    [
      'a foreign sub-segment',
      { subSegments: ['veteran'] },
      'subSegments: veteran is not a sub-segment of student',
    ],
    ['an empty name', { name: ' ' }, 'name: is required'],
    [
      'an end before the start',
      { startDate: new Date('2030-02-01'), endDate: new Date('2030-01-01') },
      'endDate: must be after startDate',
    ],
    [
      'a static offer without code',
      { offerType: OfferType.OFFER_TYPE_STATIC_CODE },
      'rewardCode: is required for a static-code offer',
    ],
    ['a code on a no-code offer', { rewardCode: 'X' }, 'rewardCode: is allowed only for a static-code offer'],
    ['an age bound on a student program', { minAge: 18 }, 'minAge: applies only to age and senior programs'],
    [
      'a relative redirect',
      { redirectUrl: '/welcome' },
      'redirectUrl: must be an absolute http or https URL',
    ],
    [
      'an unknown country',
      { countries: ['ZZ'] },
      'countries: "ZZ" is not an ISO 3166-1 alpha-2 country code',
    ],
    ['an unknown mode', { mode: 7 as programsProgramV1.ProgramMode }, 'mode: unknown value 7'],
    [
      'a webhook with credentials',
      {
        webhook: { callbackUri: 'https://u:p@hooks.example.com/x', createdAt: undefined, notifications: [] },
      },
      'webhook.callbackUri: must not contain a user name or password',
    ],
    [
      'a webhook with an unspecified notification',
      {
        webhook: {
          callbackUri: 'https://hooks.example.com/x',
          createdAt: undefined,
          notifications: [WebhookNotification.WEBHOOK_NOTIFICATION_UNSPECIFIED],
        },
      },
      'webhook.notifications: "UNSPECIFIED" is not a webhook notification',
    ],
    [
      'a zero verification limit',
      { verificationLimit: { quantity: 0, days: 1 } },
      'verificationLimit.quantity: must be from 1 to 1000',
    ],
  ])(
    'refuses %s with INVALID_ARGUMENT invalidRequest and stores nothing',
    async (_case, overrides, message) => {
      const before = await programCount();
      const err = await failure(
        h.client.unary('createProgram', { program: programDraft(accountId, overrides) }),
      );
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.errorIds).toEqual(['invalidRequest']);
      expect(err.message).toBe(message);
      expect(await programCount()).toBe(before);
    },
  );

  it('names every problem of a request at once', async () => {
    const err = await failure(
      h.client.unary('createProgram', {
        program: programDraft(accountId, {
          name: '',
          segment: 'military',
          subSegments: ['police'],
          countries: ['xx'],
        }),
      }),
    );
    expect(err.message).toBe(
      'name: is required; subSegments: police is not a sub-segment of military; ' +
        'countries: "xx" is not an ISO 3166-1 alpha-2 country code',
    );
  });

  it('answers NOT_FOUND (SEM) for an unknown account and INVALID_ARGUMENT for a missing one', async () => {
    const unknown = await failure(
      h.client.unary('createProgram', { program: programDraft('0123456789abcdef01234567') }),
    );
    expect(unknown.code).toBe(status.NOT_FOUND);
    expect(unknown.message).toBe('Account not found');
    const missing = await failure(h.client.unary('createProgram', { program: programDraft('') }));
    expect(missing.code).toBe(status.INVALID_ARGUMENT);
    expect(missing.message).toBe('accountId: is required');
  });

  it('answers the same NOT_FOUND noProgram for an unknown id, a malformed id and another account', async () => {
    const program = await newProgram(h.client, accountId);
    const other = await newAccount(h.client, 'Other');
    for (const request of [
      { programId: '0123456789abcdef01234567', accountId },
      { programId: 'not-an-id', accountId },
      { programId: program.programId, accountId: other },
      { programId: program.programId, accountId: '0123456789abcdef01234567' },
    ]) {
      const err = await failure(h.client.unary('getProgram', request));
      expect({ code: err.code, errorIds: err.errorIds, message: err.message }).toEqual({
        code: status.NOT_FOUND,
        errorIds: ['noProgram'],
        message: 'Program not found',
      });
    }
    // Operator and service calls (no account) see every program.
    const { program: read } = await h.client.unary('getProgram', {
      programId: program.programId,
      accountId: '',
    });
    expect(read!.programId).toBe(program.programId);
  });
});
