import { status } from '@grpc/grpc-js';
import { programsEventsV1, programsV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  rowText,
  startPrograms,
  type Harness,
} from './support';

describe('SendLink and GetSendLinkRequest', () => {
  let h: Harness;
  let accountId: string;
  let programId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
    ({ programId } = await newProgram(h.client, accountId));
  });
  afterAll(async () => {
    await h?.stop();
  });

  const send = (
    recipient: programsV1.SendLinkRequest['recipient'],
    fields: Partial<programsV1.SendLinkRequest> = {},
  ) => h.client.unary('sendLink', { programId, accountId, recipient, trackingId: '', ...fields });

  it('records an email request encrypted at rest and announces it with ids only', async () => {
    const { requestId } = await send(
      { $case: 'email', email: ' Jane.Doe@Example.COM ' },
      { trackingId: 'crm-42' },
    );
    expect(requestId).toMatch(/^[0-9a-f]{24}$/);

    const stored = await rowText(h.db, 'send_link_requests', requestId);
    expect(stored.toLowerCase()).not.toContain('jane.doe');
    expect(stored).not.toContain(Buffer.from('jane.doe@example.com').toString('hex'));

    const view = await h.client.unary('getSendLinkRequest', { requestId });
    expect(view).toMatchObject({
      requestId,
      programId,
      recipient: { $case: 'email', email: 'jane.doe@example.com' },
      trackingId: 'crm-42',
    });
    expect(view.createdAt).toBeInstanceOf(Date);

    const events = (await outboxEvents(h.db, programId)).filter((e) => e.type.endsWith('SendLinkRequested'));
    const last = events[events.length - 1]!;
    const decoded = programsEventsV1.SendLinkRequested.decode(last.payload);
    expect(decoded).toMatchObject({
      requestId,
      programId,
      accountId,
      channel: programsEventsV1.SendLinkChannel.SEND_LINK_CHANNEL_EMAIL,
    });
    expect(last.payload.toString('latin1').toLowerCase()).not.toContain('jane');
  });

  it('stores a phone number as E.164', async () => {
    const { requestId } = await send({ $case: 'phoneNumber', phoneNumber: '+1 (415) 555-0100' });
    const view = await h.client.unary('getSendLinkRequest', { requestId });
    expect(view.recipient).toEqual({ $case: 'phoneNumber', phoneNumber: '+14155550100' });
    const stored = await rowText(h.db, 'send_link_requests', requestId);
    expect(stored).not.toContain('4155550100');
    expect(stored).not.toContain(Buffer.from('+14155550100').toString('hex'));
  });

  it.each<[string, programsV1.SendLinkRequest['recipient'], string, string]>([
    ['no recipient', undefined, '', 'recipient: email or phoneNumber is required'],
    ['a malformed email', { $case: 'email', email: 'jane@' }, '', 'email: is not a valid email address'],
    [
      'an over-long email',
      { $case: 'email', email: `${'a'.repeat(250)}@x.io` },
      '',
      'email: must be at most 254 characters',
    ],
    [
      'a national phone number',
      { $case: 'phoneNumber', phoneNumber: '415 555 0100' },
      '',
      'phoneNumber: is not a valid phone number in international form (e.g. +14155550100)',
    ],
    [
      'an over-long tracking id',
      { $case: 'email', email: 'a@example.com' },
      't'.repeat(101),
      'trackingId: must be at most 100 characters',
    ],
  ])(
    'refuses %s with INVALID_ARGUMENT invalidRequest and stores nothing',
    async (_case, recipient, trackingId, message) => {
      const [before] = (await h.db.withSchema('programs').table('send_link_requests').count({ n: '*' })) as {
        n: string;
      }[];
      const err = await failure(send(recipient, { trackingId }));
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.errorIds).toEqual(['invalidRequest']);
      expect(err.message).toBe(message);
      const [after] = (await h.db.withSchema('programs').table('send_link_requests').count({ n: '*' })) as {
        n: string;
      }[];
      expect(after!.n).toBe(before!.n);
    },
  );

  it('answers NOT_FOUND noProgram for another account or an unknown program', async () => {
    const other = await newAccount(h.client, 'Other');
    const recipient = { $case: 'email' as const, email: 'a@example.com' };
    for (const fields of [
      { accountId: other },
      { programId: '0123456789abcdef01234567' },
      { programId: '' },
    ]) {
      const err = await failure(send(recipient, fields));
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
  });

  it('answers NOT_FOUND (SEM) for an unknown request id', async () => {
    for (const requestId of ['0123456789abcdef01234567', 'nope']) {
      const err = await failure(h.client.unary('getSendLinkRequest', { requestId }));
      expect(err.code).toBe(status.NOT_FOUND);
    }
  });
});
