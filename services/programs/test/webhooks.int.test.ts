import { status } from '@grpc/grpc-js';
import { programsEventsV1, programsProgramV1, type programsV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  programDraft,
  ProgramMode,
  rowText,
  startPrograms,
  WebhookNotification,
  type Harness,
} from './support';

const { WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED: REJECTED, WEBHOOK_NOTIFICATION_EXPIRATION: EXPIRATION } =
  WebhookNotification;
const MAX_ATTEMPTS = WebhookNotification.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhooks', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const callbackUri = 'https://hooks.example.com/eligo?source=test';
  const hook = (programId: string, fields: Partial<programsV1.CreateWebhookRequest> = {}) =>
    h.client.unary('createWebhook', { programId, accountId, callbackUri, notifications: [], ...fields });
  const storedNotifications = async (programId: string): Promise<string[]> =>
    (
      (await h.db.withSchema('programs').table('programs').where({ id: programId }).first()) as {
        webhook_notifications: string[];
      }
    ).webhook_notifications;

  it('shows the signing secret once, never in GetProgram, and stores it encrypted', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const created = await hook(programId);
    expect(created.signingSecret).toMatch(SECRET);
    expect(Buffer.from(created.signingSecret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(created.program!.webhook!.callbackUri).toBe(callbackUri);
    expect(created.program!.webhook!.notifications).toEqual([]);

    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.webhook).toEqual(created.program!.webhook);
    expect(JSON.stringify(program)).not.toContain(created.signingSecret);

    const stored = await rowText(h.db, 'programs', programId);
    expect(stored).toContain(callbackUri);
    expect(stored).not.toContain(created.signingSecret);
    expect(stored).not.toContain(Buffer.from(created.signingSecret).toString('hex'));

    const delivery = await h.client.unary('getWebhookDelivery', { programId });
    expect(delivery).toEqual({
      callbackUri,
      signingSecret: created.signingSecret,
      notifications: [],
      mode: ProgramMode.PROGRAM_MODE_TEST,
      accountId,
      configuredAt: created.program!.webhook!.createdAt,
    });
  });

  it('stores the opted-in notifications folded and sorted, and GetWebhookDelivery returns them', async () => {
    const { programId } = await newProgram(h.client, accountId, { mode: ProgramMode.PROGRAM_MODE_LIVE });
    const created = await hook(programId, { notifications: [EXPIRATION, REJECTED, EXPIRATION] });
    expect(created.program!.webhook!.notifications).toEqual([REJECTED, EXPIRATION]);
    expect(await storedNotifications(programId)).toEqual(['DOCUMENT_REJECTED', 'EXPIRATION']);

    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.webhook).toEqual({
      callbackUri,
      notifications: [REJECTED, EXPIRATION],
      createdAt: created.program!.webhook!.createdAt,
    });
    expect(program!.webhook!.createdAt).toBeInstanceOf(Date);

    const delivery = await h.client.unary('getWebhookDelivery', { programId });
    expect(delivery).toEqual({
      callbackUri,
      signingSecret: created.signingSecret,
      notifications: [REJECTED, EXPIRATION],
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      accountId,
      configuredAt: program!.webhook!.createdAt,
    });

    // The ProgramUpdated snapshot carries them; WebhookConfigured stays as it was.
    const events = await outboxEvents(h.db, programId);
    expect(events.map((e) => e.type.split('.').pop())).toEqual([
      'ProgramCreated',
      'ProgramUpdated',
      'WebhookConfigured',
    ]);
    const snapshot = programsEventsV1.ProgramUpdated.decode(events[1]!.payload).program!;
    expect(snapshot.webhook!.notifications).toEqual([REJECTED, EXPIRATION]);
  });

  it('answers GetWebhookDelivery for a program without webhook with its owner and mode only', async () => {
    const { programId } = await newProgram(h.client, accountId, { mode: ProgramMode.PROGRAM_MODE_LIVE });
    expect(await h.client.unary('getWebhookDelivery', { programId })).toEqual({
      callbackUri: '',
      signingSecret: '',
      notifications: [],
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      accountId,
      configuredAt: undefined,
    });
  });

  it.each([
    ['UNSPECIFIED', [WebhookNotification.WEBHOOK_NOTIFICATION_UNSPECIFIED], '"UNSPECIFIED"'],
    ['an unknown value (7)', [REJECTED, 7 as programsProgramV1.WebhookNotification], '"7"'],
  ])(
    'refuses %s among the notifications with INVALID_ARGUMENT and stores nothing',
    async (_case, values, named) => {
      const { programId } = await newProgram(h.client, accountId);
      const err = await failure(hook(programId, { notifications: values }));
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.errorIds).toEqual(['invalidRequest']);
      expect(err.message).toBe(`notifications: ${named} is not a webhook notification`);
      const { program } = await h.client.unary('getProgram', { programId, accountId });
      expect(program!.webhook).toBeUndefined();
      expect((await outboxEvents(h.db, programId)).length).toBe(1);
    },
  );

  it('creates a webhook with the program, secret in the CreateProgram reply only', async () => {
    const { program, webhookSigningSecret } = await h.client.unary('createProgram', {
      program: {
        ...programDraft(accountId),
        mode: ProgramMode.PROGRAM_MODE_LIVE,
        webhook: { callbackUri, createdAt: undefined, notifications: [MAX_ATTEMPTS, REJECTED] },
      },
    });
    expect(webhookSigningSecret).toMatch(SECRET);
    expect(program!.webhook!.notifications).toEqual([REJECTED, MAX_ATTEMPTS]);
    const delivery = await h.client.unary('getWebhookDelivery', { programId: program!.programId });
    expect(delivery).toEqual({
      callbackUri,
      signingSecret: webhookSigningSecret,
      notifications: [REJECTED, MAX_ATTEMPTS],
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      accountId,
      configuredAt: program!.webhook!.createdAt,
    });
    const types = (await outboxEvents(h.db, program!.programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual(['ProgramCreated', 'WebhookConfigured']);
  });

  it('refuses a second webhook (ALREADY_EXISTS); delete clears it, then create gives a new secret', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const first = await hook(programId, { notifications: [EXPIRATION] });
    const err = await failure(hook(programId, { callbackUri: 'https://other.example.com/' }));
    expect(err.code).toBe(status.ALREADY_EXISTS);
    expect(err.errorIds).toEqual(['webhookAlreadyExists']);
    expect(err.message).toBe('Program already has a webhook; delete it first');
    expect((await h.client.unary('getWebhookDelivery', { programId })).callbackUri).toBe(callbackUri);

    const deleted = await h.client.unary('deleteWebhook', { programId, accountId });
    expect(deleted.program!.webhook).toBeUndefined();
    expect(await h.client.unary('getWebhookDelivery', { programId })).toEqual({
      callbackUri: '',
      signingSecret: '',
      notifications: [],
      mode: ProgramMode.PROGRAM_MODE_TEST,
      accountId,
      configuredAt: undefined,
    });
    const stored = await h.db.withSchema('programs').table('programs').where({ id: programId }).first();
    expect(stored.webhook_secret).toBeNull();
    expect(stored.webhook_notifications).toEqual([]);

    const second = await hook(programId);
    expect(second.signingSecret).not.toBe(first.signingSecret);
    expect(second.program!.webhook!.notifications).toEqual([]);
    const types = (await outboxEvents(h.db, programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual([
      'ProgramCreated',
      'ProgramUpdated',
      'WebhookConfigured',
      'ProgramUpdated',
      'WebhookRemoved',
      'ProgramUpdated',
      'WebhookConfigured',
    ]);
  });

  it('the schema refuses notifications without a webhook, and names it does not know', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const programs = () => h.db.withSchema('programs').table('programs').where({ id: programId });
    await expect(programs().update({ webhook_notifications: ['EXPIRATION'] })).rejects.toThrow(
      /programs_webhook_notifications_need_webhook_check/,
    );
    await hook(programId);
    await expect(programs().update({ webhook_notifications: ['SUCCESS'] })).rejects.toThrow(
      /programs_webhook_notifications_known_check/,
    );
  });

  it('deleting a webhook that does not exist returns the program and emits nothing', async () => {
    const created = await newProgram(h.client, accountId);
    const { program } = await h.client.unary('deleteWebhook', { programId: created.programId, accountId });
    expect(program).toEqual(created);
    expect((await outboxEvents(h.db, created.programId)).length).toBe(1);
  });

  it.each([
    ['a relative URI', '/hook', 'callbackUri: must be an absolute http or https URL'],
    ['a non-http scheme', 'ftp://hooks.example.com/x', 'callbackUri: must be an absolute http or https URL'],
    [
      'credentials',
      'https://user:pw@hooks.example.com/x',
      'callbackUri: must not contain a user name or password',
    ],
    ['a fragment', 'https://hooks.example.com/x#frag', 'callbackUri: must not contain a fragment (#...)'],
    [
      'an over-long URI',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
      'callbackUri: must be at most 2048 characters',
    ],
  ])('refuses %s with INVALID_ARGUMENT invalidRequest', async (_case, uri, message) => {
    const { programId } = await newProgram(h.client, accountId);
    const err = await failure(hook(programId, { callbackUri: uri }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe(message);
  });

  it('answers NOT_FOUND noProgram for another account, and GetWebhookDelivery for unknown programs', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const other = await newAccount(h.client, 'Other');
    for (const call of [
      () => h.client.unary('createWebhook', { programId, accountId: other, callbackUri, notifications: [] }),
      () => h.client.unary('deleteWebhook', { programId, accountId: other }),
      () => h.client.unary('getWebhookDelivery', { programId: '0123456789abcdef01234567' }),
      () => h.client.unary('getWebhookDelivery', { programId: 'bad' }),
    ]) {
      const err = await failure(call());
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.webhook).toBeUndefined();
  });
});
