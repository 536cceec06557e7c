import { programsEventsV1, programsProgramV1 } from '@eligo/proto';
import { parseCloudEventHeaders, type DeliveredMessage } from '@eligo/runtime';
import {
  newAccount,
  newProgram,
  OfferType,
  startPrograms,
  subscribeProgramsTopic,
  type Harness,
} from './support';

/**
 * The events as consumers see them: from Kafka (published by the outbox relay), with CloudEvents headers,
 * keyed by the aggregate, decodable with events.proto, and free of secrets and PII.
 */
describe('programs events on Kafka', () => {
  let h: Harness;
  let topic: Awaited<ReturnType<typeof subscribeProgramsTopic>>;
  beforeAll(async () => {
    h = await startPrograms();
    topic = await subscribeProgramsTopic();
  });
  afterAll(async () => {
    await topic?.stop();
    await h?.stop();
  });

  const eventsFor = (key: string, count: number) => topic.keyed(key, count);
  const typeOf = (m: DeliveredMessage) => parseCloudEventHeaders(m.headers).type;

  it('publishes the life of a program in order, with CloudEvents headers and without secrets', async () => {
    const accountId = await newAccount(h.client);
    const created = await newProgram(h.client, accountId, { offerType: OfferType.OFFER_TYPE_REWARD_POOL });
    const programId = created.programId;
    const webhook = await h.client.unary('createWebhook', {
      programId,
      accountId,
      callbackUri: 'https://hooks.example.com/e',
      notifications: [programsProgramV1.WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION],
    });
    await h.client.unary('deleteWebhook', { programId, accountId });
    await h.client.unary('createVerificationLimit', {
      programId,
      accountId,
      limit: { quantity: 1, days: 2 },
    });
    await h.client.unary('deleteVerificationLimit', { programId, accountId });
    await h.client.unary('addRewardCodes', { programId, codes: ['EV-1', 'EV-2'] });
    const { requestId } = await h.client.unary('sendLink', {
      programId,
      accountId,
      recipient: { $case: 'email', email: 'pii.person@example.com' },
      trackingId: '',
    });

    const messages = await eventsFor(programId, 9);
    expect(messages.map(typeOf)).toEqual([
      'eligo.programs.v1.ProgramCreated',
      'eligo.programs.v1.ProgramUpdated', // webhook set
      'eligo.programs.v1.WebhookConfigured',
      'eligo.programs.v1.ProgramUpdated', // webhook removed
      'eligo.programs.v1.WebhookRemoved',
      'eligo.programs.v1.ProgramUpdated', // limit set
      'eligo.programs.v1.ProgramUpdated', // limit removed
      'eligo.programs.v1.ProgramUpdated', // codes added
      'eligo.programs.v1.SendLinkRequested',
    ]);
    for (const m of messages) {
      const ce = parseCloudEventHeaders(m.headers);
      expect(ce.source).toBe('/eligo/programs');
      expect(ce.subject).toBe(programId);
      expect(m.headers['content-type']).toBe('application/protobuf');
      const bytes = m.value.toString('latin1');
      expect(bytes).not.toContain(webhook.signingSecret);
      expect(bytes).not.toContain('pii.person');
    }

    const createdEvent = programsEventsV1.ProgramCreated.decode(messages[0]!.value);
    expect(createdEvent.program).toEqual(created);
    const afterWebhook = programsEventsV1.ProgramUpdated.decode(messages[1]!.value);
    expect(afterWebhook.program!.webhook!.callbackUri).toBe('https://hooks.example.com/e');
    expect(afterWebhook.program!.webhook!.notifications).toEqual([
      programsProgramV1.WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
    ]);
    const configured = programsEventsV1.WebhookConfigured.decode(messages[2]!.value);
    expect(configured).toMatchObject({ programId, accountId, callbackUri: 'https://hooks.example.com/e' });
    expect(programsEventsV1.ProgramUpdated.decode(messages[3]!.value).program!.webhook).toBeUndefined();
    const removed = programsEventsV1.WebhookRemoved.decode(messages[4]!.value);
    expect(removed).toMatchObject({ programId, accountId });
    const withLimit = programsEventsV1.ProgramUpdated.decode(messages[5]!.value);
    expect(withLimit.program!.verificationLimit).toEqual({ quantity: 1, days: 2 });
    const withCodes = programsEventsV1.ProgramUpdated.decode(messages[7]!.value);
    expect(withCodes.program!.rewardCodesRemaining).toBe(2);
    const sendLink = programsEventsV1.SendLinkRequested.decode(messages[8]!.value);
    expect(sendLink).toMatchObject({
      requestId,
      programId,
      accountId,
      channel: programsEventsV1.SendLinkChannel.SEND_LINK_CHANNEL_EMAIL,
    });
  });

  it('publishes the snapshot of a program whose theme has the largest size allowed', async () => {
    const accountId = await newAccount(h.client);
    // 255 KiB of theme: messages of 2000 characters and 60 000 bytes of CSS (the cap is 256 KiB in total).
    const messages = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`m${i}`, 'é'.repeat(1000)]));
    const program = await newProgram(h.client, accountId, {
      theme: { intl: { locale: 'fr', messages, errorId: {}, locales: {} }, customCss: 'a'.repeat(60_000) },
    });
    const [message] = await eventsFor(program.programId, 1);
    expect(programsEventsV1.ProgramCreated.decode(message!.value).program).toEqual(program);
  });

  it('publishes TokenRevoked keyed by the token id, once', async () => {
    const accountId = await newAccount(h.client);
    const token = await h.client.unary('createAccessToken', { accountId, name: 'gateway', roles: [] });
    await h.client.unary('revokeAccessToken', { accountId, tokenId: token.tokenId });
    await h.client.unary('revokeAccessToken', { accountId, tokenId: token.tokenId });
    const [message] = await eventsFor(token.tokenId, 1);
    expect(typeOf(message!)).toBe('eligo.programs.v1.TokenRevoked');
    expect(programsEventsV1.TokenRevoked.decode(message!.value)).toMatchObject({
      tokenId: token.tokenId,
      accountId,
    });
    expect(message!.value.toString('latin1')).not.toContain(token.token);
    // The relay publishes the outbox in order: once a later event has arrived, a second TokenRevoked
    // (enqueued before it) would have been published too.
    const later = await newProgram(h.client, accountId);
    await eventsFor(later.programId, 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(topic.messages.filter((m) => m.key === token.tokenId)).toHaveLength(1);
  });
});
