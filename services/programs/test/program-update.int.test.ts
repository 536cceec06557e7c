import { status } from '@grpc/grpc-js';
import { programsProgramV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  OfferType,
  outboxEvents,
  ProgramMode,
  startPrograms,
  WebhookNotification,
  type Harness,
} from './support';

const Program = programsProgramV1.Program;

describe('UpdateProgram', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const update = (
    programId: string,
    fields: Partial<programsProgramV1.Program>,
    paths: string[],
    account = accountId,
  ) =>
    h.client.unary('updateProgram', {
      programId,
      accountId: account,
      program: Program.create(fields),
      updateMask: paths,
    });

  it('changes only the masked fields, bumps updated_at and emits ProgramUpdated', async () => {
    const created = await newProgram(h.client, accountId, {
      redirectUrl: 'https://a.example.com',
      countries: ['US'],
    });
    const { program, webhookSigningSecret } = await update(
      created.programId,
      { name: 'Renamed', countries: ['DE'], redirectUrl: 'https://ignored.example.com' },
      ['name', 'countries'],
    );
    expect(webhookSigningSecret).toBe('');
    expect(program).toMatchObject({
      name: 'Renamed',
      countries: ['DE'],
      redirectUrl: 'https://a.example.com',
    });
    expect(program!.updatedAt!.getTime()).toBeGreaterThan(created.updatedAt!.getTime());
    expect(program!.createdAt).toEqual(created.createdAt);
    const { program: read } = await h.client.unary('getProgram', { programId: created.programId, accountId });
    expect(read).toEqual(program);
    const events = await outboxEvents(h.db, created.programId);
    expect(events.map((e) => e.type)).toEqual([
      'eligo.programs.v1.ProgramCreated',
      'eligo.programs.v1.ProgramUpdated',
    ]);
  });

  it('clears a masked field left unset, and resets enums and document review to their defaults', async () => {
    const created = await newProgram(h.client, accountId, {
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      redirectUrl: 'https://a.example.com',
      documentReview: { maxRejections: 7, maxReviewTime: '2_MIN', estimatedReviewTime: '' },
      theme: { intl: { locale: 'de', messages: {}, errorId: {}, locales: {} }, customCss: 'a{}' },
    });
    const { program } = await update(created.programId, {}, [
      'redirect_url',
      'mode',
      'document_review',
      'theme',
    ]);
    expect(program!.redirectUrl).toBeUndefined();
    expect(program!.mode).toBe(ProgramMode.PROGRAM_MODE_TEST);
    expect(program!.documentReview).toEqual({ maxRejections: 3, maxReviewTime: '', estimatedReviewTime: '' });
    expect(program!.theme).toEqual({
      intl: { locale: '', messages: {}, errorId: {}, locales: {} },
      customCss: '',
    });
  });

  it('validates the merged result like create: a static offer needs its code', async () => {
    const created = await newProgram(h.client, accountId);
    const err = await failure(
      update(created.programId, { offerType: OfferType.OFFER_TYPE_STATIC_CODE }, ['offer_type']),
    );
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.message).toBe('rewardCode: is required for a static-code offer');
    const { program } = await update(
      created.programId,
      { offerType: OfferType.OFFER_TYPE_STATIC_CODE, rewardCode: 'CODE1' },
      ['offer_type', 'reward_code'],
    );
    expect(program).toMatchObject({ offerType: OfferType.OFFER_TYPE_STATIC_CODE, rewardCode: 'CODE1' });
  });

  it.each<[string, Partial<programsProgramV1.Program>, string[], string]>([
    ['an empty mask', { name: 'x' }, [], 'updateMask: name at least one field to update'],
    [
      'an unknown path',
      { name: 'x' },
      ['nickname'],
      'updateMask: "nickname" is not a field of Program that can be updated',
    ],
    ['the program id', {}, ['program_id'], 'updateMask: program_id cannot be updated'],
    ['the account', {}, ['account_id'], 'updateMask: account_id cannot be updated'],
    ['created_at', {}, ['created_at'], 'updateMask: created_at cannot be updated'],
    ['the pool size', {}, ['reward_codes_remaining'], 'updateMask: reward_codes_remaining cannot be updated'],
    [
      'another segment',
      { segment: 'military' },
      ['segment'],
      'segment: cannot be changed after the program is created (it is student)',
    ],
    ['a cleared name', {}, ['name'], 'name: is required'],
    [
      'a bad sub-segment',
      { subSegments: ['nurse'] },
      ['sub_segments'],
      'subSegments: nurse is not a sub-segment of student',
    ],
  ])(
    'refuses %s with INVALID_ARGUMENT invalidRequest and changes nothing',
    async (_case, fields, paths, message) => {
      const created = await newProgram(h.client, accountId);
      const err = await failure(update(created.programId, fields, paths));
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.errorIds).toEqual(['invalidRequest']);
      expect(err.message).toBe(message);
      const { program } = await h.client.unary('getProgram', { programId: created.programId, accountId });
      expect(program).toEqual(created);
      expect((await outboxEvents(h.db, created.programId)).length).toBe(1);
    },
  );

  it('accepts the segment path with the same value', async () => {
    const created = await newProgram(h.client, accountId);
    const { program } = await update(created.programId, { segment: 'student', name: 'Same' }, [
      'segment',
      'name',
    ]);
    expect(program).toMatchObject({ segment: 'student', name: 'Same' });
  });

  it('sets a webhook through the mask (secret in this reply only), refuses a second, clears it', async () => {
    const created = await newProgram(h.client, accountId);
    const { WEBHOOK_NOTIFICATION_EXPIRATION: EXPIRATION, WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED: REJECTED } =
      WebhookNotification;
    const webhook = {
      callbackUri: 'https://hooks.example.com/eligo',
      createdAt: undefined,
      notifications: [EXPIRATION, REJECTED, REJECTED],
    };
    const first = await update(created.programId, { webhook }, ['webhook']);
    expect(first.webhookSigningSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.program!.webhook!.callbackUri).toBe(webhook.callbackUri);
    expect(first.program!.webhook!.notifications).toEqual([REJECTED, EXPIRATION]);
    expect(first.program!.webhook!.createdAt).toBeInstanceOf(Date);

    const again = await failure(update(created.programId, { webhook }, ['webhook']));
    expect(again.code).toBe(status.ALREADY_EXISTS);
    expect(again.errorIds).toEqual(['webhookAlreadyExists']);

    const delivery = await h.client.unary('getWebhookDelivery', { programId: created.programId });
    expect(delivery).toEqual({
      callbackUri: webhook.callbackUri,
      signingSecret: first.webhookSigningSecret,
      notifications: [REJECTED, EXPIRATION],
      mode: ProgramMode.PROGRAM_MODE_TEST,
      accountId,
      configuredAt: first.program!.webhook!.createdAt,
    });

    const cleared = await update(created.programId, {}, ['webhook']);
    expect(cleared.program!.webhook).toBeUndefined();
    expect(cleared.webhookSigningSecret).toBe('');
    const afterClear = await h.client.unary('getWebhookDelivery', { programId: created.programId });
    expect(afterClear).toMatchObject({ callbackUri: '', notifications: [], accountId });
    const stored = await h.db
      .withSchema('programs')
      .table('programs')
      .where({ id: created.programId })
      .first();
    expect(stored.webhook_notifications).toEqual([]);
    const types = (await outboxEvents(h.db, created.programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual([
      'ProgramCreated',
      'ProgramUpdated',
      'WebhookConfigured',
      'ProgramUpdated',
      'WebhookRemoved',
    ]);
  });

  it('refuses a webhook with an unknown notification through the mask and changes nothing', async () => {
    const created = await newProgram(h.client, accountId);
    const webhook = {
      callbackUri: 'https://hooks.example.com/eligo',
      createdAt: undefined,
      notifications: [
        WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
        42 as programsProgramV1.WebhookNotification,
      ],
    };
    const err = await failure(update(created.programId, { name: 'Renamed', webhook }, ['name', 'webhook']));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe('webhook.notifications: "42" is not a webhook notification');
    const { program } = await h.client.unary('getProgram', { programId: created.programId, accountId });
    expect(program).toEqual(created);
    expect((await outboxEvents(h.db, created.programId)).length).toBe(1);
  });

  it('sets a verification limit through the mask, refuses a second, clears it', async () => {
    const created = await newProgram(h.client, accountId);
    const { program } = await update(created.programId, { verificationLimit: { quantity: 3, days: 7 } }, [
      'verification_limit',
    ]);
    expect(program!.verificationLimit).toEqual({ quantity: 3, days: 7 });
    const err = await failure(
      update(created.programId, { verificationLimit: { quantity: 1, days: 1 } }, ['verification_limit']),
    );
    expect(err.code).toBe(status.ALREADY_EXISTS);
    expect(err.errorIds).toEqual(['verificationLimitAlreadyExists']);
    const cleared = await update(created.programId, {}, ['verification_limit']);
    expect(cleared.program!.verificationLimit).toBeUndefined();
  });

  it('answers NOT_FOUND noProgram for a program of another account, before looking at the request', async () => {
    const created = await newProgram(h.client, accountId);
    const other = await newAccount(h.client, 'Other');
    for (const paths of [['name'], ['program_id']]) {
      const err = await failure(update(created.programId, { name: 'Stolen' }, paths, other));
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
  });

  it('serialises concurrent updates of different fields: none is lost', async () => {
    // Each update writes one field once; without the row lock, a read-modify-write that read before another
    // committed would write the old value of that other field back.
    const changes: [Partial<programsProgramV1.Program>, string][] = [
      [{ name: 'Concurrent' }, 'name'],
      [{ countries: ['US'] }, 'countries'],
      [{ redirectUrl: 'https://r.example.com' }, 'redirect_url'],
      [{ consolationRewardCode: 'SORRY' }, 'consolation_reward_code'],
      [{ theme: { intl: { locale: 'de', messages: {}, errorId: {}, locales: {} }, customCss: '' } }, 'theme'],
      [
        { documentReview: { maxRejections: 1, maxReviewTime: '', estimatedReviewTime: '' } },
        'document_review',
      ],
      [
        { organizationRules: { types: ['K12'], countries: [], includeIds: [], excludeIds: [] } },
        'organization_rules',
      ],
      [{ mode: ProgramMode.PROGRAM_MODE_LIVE }, 'mode'],
    ];
    const programs = await Promise.all(Array.from({ length: 8 }, () => newProgram(h.client, accountId)));
    await Promise.all(
      programs.flatMap((p) => changes.map(([fields, path]) => update(p.programId, fields, [path]))),
    );
    for (const p of programs) {
      const { program } = await h.client.unary('getProgram', { programId: p.programId, accountId });
      expect(program).toMatchObject({
        name: 'Concurrent',
        countries: ['US'],
        redirectUrl: 'https://r.example.com',
        consolationRewardCode: 'SORRY',
        theme: { intl: { locale: 'de' } },
        documentReview: { maxRejections: 1 },
        organizationRules: { types: ['K12'] },
        mode: ProgramMode.PROGRAM_MODE_LIVE,
      });
      const updates = (await outboxEvents(h.db, p.programId)).filter((e) =>
        e.type.endsWith('ProgramUpdated'),
      );
      expect(updates).toHaveLength(changes.length);
    }
  });
});
