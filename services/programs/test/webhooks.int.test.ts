import { status } from '@grpc/grpc-js';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  programDraft,
  rowText,
  startPrograms,
  type Harness,
} from './support';

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

  it('shows the signing secret once, never in GetProgram, and stores it encrypted', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const created = await h.client.unary('createWebhook', { programId, accountId, callbackUri });
    expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.program!.webhook!.callbackUri).toBe(callbackUri);

    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.webhook).toEqual(created.program!.webhook);
    expect(JSON.stringify(program)).not.toContain(created.signingSecret);

    const stored = await rowText(h.db, 'programs', programId);
    expect(stored).toContain(callbackUri);
    expect(stored).not.toContain(created.signingSecret);
    expect(stored).not.toContain(Buffer.from(created.signingSecret).toString('hex'));

    const delivery = await h.client.unary('getWebhookDelivery', { programId });
    expect(delivery).toEqual({ callbackUri, signingSecret: created.signingSecret });
  });

  it('creates a webhook with the program, secret in the CreateProgram reply only', async () => {
    const { program, webhookSigningSecret } = await h.client.unary('createProgram', {
      program: {
        ...programDraft(accountId),
        webhook: { callbackUri, createdAt: undefined },
      },
    });
    expect(webhookSigningSecret).toMatch(/^whsec_/);
    const delivery = await h.client.unary('getWebhookDelivery', { programId: program!.programId });
    expect(delivery.signingSecret).toBe(webhookSigningSecret);
    const types = (await outboxEvents(h.db, program!.programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual(['ProgramCreated', 'WebhookConfigured']);
  });

  it('refuses a second webhook (ALREADY_EXISTS); delete then create gives a new secret', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const first = await h.client.unary('createWebhook', { programId, accountId, callbackUri });
    const err = await failure(
      h.client.unary('createWebhook', { programId, accountId, callbackUri: 'https://other.example.com/' }),
    );
    expect(err.code).toBe(status.ALREADY_EXISTS);
    expect(err.errorIds).toEqual(['webhookAlreadyExists']);
    expect(err.message).toBe('Program already has a webhook; delete it first');
    expect((await h.client.unary('getWebhookDelivery', { programId })).callbackUri).toBe(callbackUri);

    const deleted = await h.client.unary('deleteWebhook', { programId, accountId });
    expect(deleted.program!.webhook).toBeUndefined();
    expect(await h.client.unary('getWebhookDelivery', { programId })).toEqual({
      callbackUri: '',
      signingSecret: '',
    });
    const stored = await h.db.withSchema('programs').table('programs').where({ id: programId }).first();
    expect(stored.webhook_secret).toBeNull();

    const second = await h.client.unary('createWebhook', { programId, accountId, callbackUri });
    expect(second.signingSecret).not.toBe(first.signingSecret);
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
    const err = await failure(h.client.unary('createWebhook', { programId, accountId, callbackUri: uri }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe(message);
  });

  it('answers NOT_FOUND noProgram for another account, and GetWebhookDelivery for unknown programs', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const other = await newAccount(h.client, 'Other');
    for (const call of [
      () => h.client.unary('createWebhook', { programId, accountId: other, callbackUri }),
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
