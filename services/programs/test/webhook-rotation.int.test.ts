import { status } from '@grpc/grpc-js';
import { programsEventsV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  rowText,
  startPrograms,
  WebhookNotification,
  type Harness,
} from './support';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** RotateWebhookSigningSecret: a new secret for the notifier to sign with, the webhook otherwise unchanged. */
describe('RotateWebhookSigningSecret', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const callbackUri = 'https://hooks.example.com/rotate';
  async function programWithWebhook() {
    const { programId } = await newProgram(h.client, accountId);
    const created = await h.client.unary('createWebhook', {
      programId,
      accountId,
      callbackUri,
      notifications: [WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION],
    });
    return { programId, created };
  }
  const rotate = (programId: string, account = accountId) =>
    h.client.unary('rotateWebhookSigningSecret', { programId, accountId: account });
  const eventTypes = async (programId: string) =>
    (await outboxEvents(h.db, programId)).map((e) => e.type.split('.').pop());

  it('gives the notifier the new secret at once and keeps the rest of the webhook', async () => {
    const { programId, created } = await programWithWebhook();
    const before = await h.client.unary('getWebhookDelivery', { programId });
    expect(before.signingSecret).toBe(created.signingSecret);

    const rotated = await rotate(programId);
    expect(rotated.signingSecret).toMatch(SECRET);
    expect(Buffer.from(rotated.signingSecret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    // Same webhook (URI, notifications, created_at); only updated_at moved.
    expect(rotated.program!.webhook).toEqual(created.program!.webhook);
    expect({ ...rotated.program!, updatedAt: undefined }).toEqual({
      ...created.program!,
      updatedAt: undefined,
    });
    expect(rotated.program!.updatedAt!.getTime()).toBeGreaterThanOrEqual(
      created.program!.updatedAt!.getTime(),
    );

    // The old secret is gone: the notifier's lookup answers the new one only.
    const after = await h.client.unary('getWebhookDelivery', { programId });
    expect(after).toEqual({ ...before, signingSecret: rotated.signingSecret });
    expect(JSON.stringify(after)).not.toContain(created.signingSecret);

    // Never in GetProgram, stored encrypted only.
    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program).toEqual(rotated.program);
    expect(JSON.stringify(program)).not.toContain(rotated.signingSecret);
    const stored = await rowText(h.db, 'programs', programId);
    for (const secret of [rotated.signingSecret, created.signingSecret]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(Buffer.from(secret).toString('hex'));
    }
  });

  it('emits ProgramUpdated then WebhookConfigured, as CreateWebhook does, without the secret', async () => {
    const { programId } = await programWithWebhook();
    const rotated = await rotate(programId);
    expect(await eventTypes(programId)).toEqual([
      'ProgramCreated',
      'ProgramUpdated',
      'WebhookConfigured',
      'ProgramUpdated',
      'WebhookConfigured',
    ]);
    const events = await outboxEvents(h.db, programId);
    const snapshot = programsEventsV1.ProgramUpdated.decode(events[3]!.payload).program!;
    expect(snapshot).toEqual(rotated.program);
    const configured = programsEventsV1.WebhookConfigured.decode(events[4]!.payload);
    expect(configured).toMatchObject({ programId, accountId, callbackUri });
    for (const event of events) {
      expect(event.payload.toString('latin1')).not.toContain(rotated.signingSecret);
      expect(event.payload.toString('latin1')).not.toContain(rotated.signingSecret.slice('whsec_'.length));
    }
  });

  it('serialises concurrent rotations: each gives its own secret, the notifier gets one of them', async () => {
    const { programId } = await programWithWebhook();
    const results = await Promise.all([rotate(programId), rotate(programId), rotate(programId)]);
    const secrets = new Set(results.map((r) => r.signingSecret));
    expect(secrets.size).toBe(3);
    const { signingSecret } = await h.client.unary('getWebhookDelivery', { programId });
    expect(secrets.has(signingSecret)).toBe(true);
    expect((await eventTypes(programId)).filter((t) => t === 'WebhookConfigured')).toHaveLength(4);
  });

  it('FAILED_PRECONDITION noWebhook when the program has none, and nothing changes', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const err = await failure(rotate(programId));
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(err.reason).toBe('noWebhook');
    expect(err.message).toBe('Program has no webhook; create one first');
    expect(await eventTypes(programId)).toEqual(['ProgramCreated']);

    const { programId: removed } = await programWithWebhook();
    await h.client.unary('deleteWebhook', { programId: removed, accountId });
    expect((await failure(rotate(removed))).code).toBe(status.FAILED_PRECONDITION);
    expect(await h.client.unary('getWebhookDelivery', { programId: removed })).toMatchObject({
      callbackUri: '',
      signingSecret: '',
    });
  });

  it('answers an operator (no account), and NOT_FOUND noProgram for another account or an unknown id', async () => {
    const { programId, created } = await programWithWebhook();
    const other = await newAccount(h.client, 'Other');
    for (const [id, account] of [
      [programId, other],
      ['0123456789abcdef01234567', ''],
      ['bad', accountId],
    ] as const) {
      const err = await failure(rotate(id, account));
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
    // Refused calls changed nothing; the operator's call does.
    expect((await h.client.unary('getWebhookDelivery', { programId })).signingSecret).toBe(
      created.signingSecret,
    );
    const rotated = await rotate(programId, '');
    expect((await h.client.unary('getWebhookDelivery', { programId })).signingSecret).toBe(
      rotated.signingSecret,
    );
  });
});
