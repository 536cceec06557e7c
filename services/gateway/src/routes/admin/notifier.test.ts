import pino from 'pino';
import { notifierV1 } from '@eligo/proto';
import {
  bindService,
  createClient,
  failedPrecondition,
  GrpcHost,
  invalidArgument,
  notFound,
} from '@eligo/runtime';
import { AuthCache } from '../../auth/auth-cache';
import { createAuthenticator } from '../../auth/authenticator';
import { createNotifierClient } from '../../clients/notifier.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { SendLinkMessagePage, WebhookDelivery, WebhookDeliveryPage } from '../../endpoints/admin-notifier';
import { checkBody } from '../../endpoints/body-check';
import { ErrorResponse } from '../../endpoints/errors';

// The notifier's logs under /rest/admin/v1 as mounted by mountRest, through the real notifier client against
// a stand-in NotifierService on a gRPC server: routing, query checks, the mapping and the error mapper.
const {
  NotifierEventType,
  DeliveryStatus,
  WebhookEndpointStatus,
  MessageChannel,
  MessageStatus,
  MessageKind,
} = notifierV1;
const operator = TEST_OPERATOR_TOKEN;
const accountToken = 'eligo_account_token';
const programId = 'ab'.repeat(12);
const requestId = 'cd'.repeat(12);
const verificationId = 'ef'.repeat(12);
const at = (time: string) => new Date(`2025-03-01T${time}.000Z`);

const deliveries = (): notifierV1.ListWebhookDeliveriesResponse => ({
  endpoint: {
    status: WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_ACTIVE,
    failingSince: at('10:00:00'),
    disabledAt: undefined,
    disabledReason: '',
  },
  deliveries: [
    notifierV1.WebhookDelivery.fromPartial({
      webhookId: 'msg_2',
      verificationId,
      eventType: NotifierEventType.NOTIFIER_EVENT_TYPE_EXPIRATION,
      status: DeliveryStatus.DELIVERY_STATUS_PENDING,
      createdAt: at('10:00:00'),
      nextAttemptAt: at('10:05:00'),
      refireOf: 'msg_1',
      attempts: [
        {
          attempt: 1,
          startedAt: at('10:00:01'),
          statusCode: 0,
          latencyMs: 5000,
          error: 'timed out after 5000 ms',
        },
      ],
    }),
    notifierV1.WebhookDelivery.fromPartial({
      webhookId: 'msg_1',
      verificationId,
      eventType: NotifierEventType.NOTIFIER_EVENT_TYPE_SUCCESS,
      status: DeliveryStatus.DELIVERY_STATUS_DELIVERED,
      createdAt: at('09:00:00'),
      deliveredAt: at('09:00:01'),
      attempts: [{ attempt: 1, startedAt: at('09:00:00'), statusCode: 200, latencyMs: 42, error: '' }],
    }),
  ],
  nextCursor: 'page-2',
});

const messages = (): notifierV1.ListMessagesResponse => ({
  messages: [
    notifierV1.Message.fromPartial({
      messageId: 'm2',
      kind: MessageKind.MESSAGE_KIND_SEND_LINK,
      requestId,
      programId,
      channel: MessageChannel.MESSAGE_CHANNEL_SMS,
      recipient: '+14155550100',
      body: 'Verify: https://eligo.example.com/v/1',
      status: MessageStatus.MESSAGE_STATUS_CAPTURED,
      createdAt: at('11:00:00'),
    }),
    notifierV1.Message.fromPartial({
      messageId: 'm1',
      kind: MessageKind.MESSAGE_KIND_SEND_LINK,
      requestId,
      programId,
      channel: MessageChannel.MESSAGE_CHANNEL_EMAIL,
      recipient: 'jane@example.com',
      subject: 'Verify your eligibility',
      body: 'Follow https://eligo.example.com/v/1',
      status: MessageStatus.MESSAGE_STATUS_FAILED,
      createdAt: at('10:00:00'),
      sentAt: undefined,
      error: '550 mailbox unavailable',
    }),
  ],
  nextCursor: '',
});

const deliveryId = `msg_${'12'.repeat(12)}`;
const resent = (): notifierV1.ResendWebhookDeliveryResponse => ({
  delivery: notifierV1.WebhookDelivery.fromPartial({
    webhookId: `msg_${'34'.repeat(12)}`,
    verificationId,
    eventType: NotifierEventType.NOTIFIER_EVENT_TYPE_SUCCESS,
    status: DeliveryStatus.DELIVERY_STATUS_PENDING,
    createdAt: at('12:00:00'),
    nextAttemptAt: at('12:00:00'),
    refireOf: deliveryId,
    attempts: [],
  }),
});

const calls: [string, unknown][] = [];
/** What the next call of a method answers (a reply, or an error to throw); the default otherwise. */
const planned = new Map<string, unknown>();
const answer =
  <Req, Res>(method: string, fallback: () => Res) =>
  async (req: Req): Promise<Res> => {
    calls.push([method, req]);
    const next = planned.get(method);
    planned.delete(method);
    if (next instanceof Error) throw next;
    return (next as Res | undefined) ?? fallback();
  };

const grpc = new GrpcHost({ logger: pino({ level: 'silent' }), reflection: false });
grpc.addService(
  bindService(
    notifierV1.NotifierServiceService,
    {
      getInfo: async () => ({}),
      listWebhookDeliveries: answer('listWebhookDeliveries', deliveries),
      listMessages: answer('listMessages', messages),
      resendWebhookDelivery: answer('resendWebhookDelivery', resent),
    },
    pino({ level: 'silent' }),
  ),
);

let url: string;
let app: TestRestApp;
let closeClient: () => void;

beforeAll(async () => {
  const address = `127.0.0.1:${await grpc.listen('127.0.0.1', 0)}`;
  const client = createClient(notifierV1.NotifierServiceClient, address, {
    deadlineMs: 5000,
    breaker: false,
  });
  closeClient = () => client.close();
  app = await startTestRestApp({
    bodyLimit: '1kb',
    notifier: createNotifierClient(client),
    authenticator: createAuthenticator({
      operatorToken: operator,
      cache: new AuthCache({ ttlMs: 0 }),
      // An account token is a valid token, just not the operator's.
      authenticate: async () => ({ accountId: programId, tokenId: requestId, roles: [] }),
    }),
  });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => {
  closeClient();
  grpc.forceShutdown();
  app.close();
});
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

async function get(path: string, token: string | null = operator) {
  const res = await fetch(`${url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const deliveriesPath = `/programs/${programId}/webhook/deliveries`;
/** The definitions' answer schemas, to check that the answers are what the OpenAPI document says. */
const matches = (schema: Parameters<typeof checkBody>[0], body: unknown) => checkBody(schema, body).ok;

it('needs the operator token on both routes, before any service call', async () => {
  for (const path of [deliveriesPath, '/messages']) {
    for (const token of [null, accountToken]) {
      const res = await get(path, token);
      expect([path, token, res.status]).toEqual([path, token, 401]);
    }
  }
  expect(calls).toEqual([]);
});

describe('GET /programs/{programId}/webhook/deliveries', () => {
  it('answers the webhook health and one page of deliveries with their attempts', async () => {
    const res = await get(`${deliveriesPath}?limit=2&cursor=page-1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      webhook: {
        status: 'ACTIVE',
        failingSince: '2025-03-01T10:00:00.000Z',
        disabledAt: null,
        disabledReason: null,
      },
      deliveries: [
        {
          webhookId: 'msg_2',
          verificationId,
          notifierEventType: 'EXPIRATION',
          status: 'PENDING',
          created: '2025-03-01T10:00:00.000Z',
          nextAttemptAt: '2025-03-01T10:05:00.000Z',
          deliveredAt: null,
          refireOf: 'msg_1',
          attempts: [
            {
              attempt: 1,
              startedAt: '2025-03-01T10:00:01.000Z',
              statusCode: null,
              latencyMs: 5000,
              error: 'timed out after 5000 ms',
            },
          ],
        },
        {
          webhookId: 'msg_1',
          verificationId,
          notifierEventType: 'SUCCESS',
          status: 'DELIVERED',
          created: '2025-03-01T09:00:00.000Z',
          nextAttemptAt: null,
          deliveredAt: '2025-03-01T09:00:01.000Z',
          refireOf: null,
          attempts: [
            {
              attempt: 1,
              startedAt: '2025-03-01T09:00:00.000Z',
              statusCode: 200,
              latencyMs: 42,
              error: null,
            },
          ],
        },
      ],
      nextCursor: 'page-2',
    });
    expect(matches(WebhookDeliveryPage, res.body)).toBe(true);
    expect(calls).toEqual([
      ['listWebhookDeliveries', { programId, limit: 2, cursor: 'page-1', verificationId: '' }],
    ]);
  });

  it('leaves unset parameters to the service’s defaults, and shows a disabled endpoint', async () => {
    planned.set('listWebhookDeliveries', {
      endpoint: {
        status: WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_DISABLED,
        failingSince: at('08:00:00'),
        disabledAt: at('09:00:00'),
        disabledReason: 'GONE',
      },
      deliveries: [],
      nextCursor: '',
    });
    const res = await get(deliveriesPath);
    expect([res.status, res.body]).toEqual([
      200,
      {
        webhook: {
          status: 'DISABLED',
          failingSince: '2025-03-01T08:00:00.000Z',
          disabledAt: '2025-03-01T09:00:00.000Z',
          disabledReason: 'GONE',
        },
        deliveries: [],
        nextCursor: null,
      },
    ]);
    expect(calls).toEqual([
      ['listWebhookDeliveries', { programId, limit: 0, cursor: '', verificationId: '' }],
    ]);
  });

  it('reads a program without a webhook as NONE', async () => {
    planned.set('listWebhookDeliveries', { endpoint: undefined, deliveries: [], nextCursor: '' });
    const res = await get(deliveriesPath);
    expect(res.body.webhook).toEqual({
      status: 'NONE',
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
    });
  });

  it('answers 404 for a program the notifier does not know, in the notifier’s words', async () => {
    planned.set('listWebhookDeliveries', notFound('Program not found'));
    const res = await get(deliveriesPath);
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Program not found' }]);
    planned.set('listWebhookDeliveries', notFound('Program not found', { errorIds: ['noProgram'] }));
    const withId = await get(deliveriesPath);
    expect([withId.status, withId.body]).toEqual([
      404,
      { errorIds: ['noProgram'], systemErrorMessage: 'Program not found' },
    ]);
  });

  it.each(['nope', 'AB'.repeat(12), 'ab'.repeat(13)])(
    'answers the malformed programId %s 404 noProgram (as the other admin program routes), without a call',
    async (id) => {
      const res = await get(`/programs/${id}/webhook/deliveries`);
      expect([res.status, res.body]).toEqual([
        404,
        { errorIds: ['noProgram'], systemErrorMessage: 'Program not found' },
      ]);
      expect(calls).toEqual([]);
    },
  );

  it.each([
    ['a page size of 0', 'limit=0'],
    ['a page size over 100', 'limit=101'],
    ['a page size that is no number', 'limit=x'],
    ['a repeated page size', 'limit=1&limit=2'],
    ['a cursor over 1000 characters', `cursor=${'c'.repeat(1001)}`],
    ['an empty cursor', 'cursor='],
    ['a parameter it does not have', 'requestId=abc'],
  ])('refuses %s with 400 invalidRequest, without a call', async (_name, query) => {
    const res = await get(`${deliveriesPath}?${query}`);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });

  it('answers the notifier’s refusal of a cursor 400 ER invalidRequest, as every admin 400', async () => {
    planned.set('listWebhookDeliveries', invalidArgument('Invalid cursor'));
    const res = await get(`${deliveriesPath}?cursor=forged`);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'Invalid cursor' },
    ]);
    expect(matches(ErrorResponse, res.body)).toBe(true);
  });

  it('answers 500 without detail when the notifier replies with an unspecified event type', async () => {
    planned.set('listWebhookDeliveries', {
      ...deliveries(),
      deliveries: [notifierV1.WebhookDelivery.fromPartial({ webhookId: 'x', status: 2 })],
    });
    const res = await get(deliveriesPath);
    expect([res.status, res.body]).toEqual([
      500,
      { errorIds: ['internalServerError'], systemErrorMessage: 'Internal server error' },
    ]);
  });
});

describe('GET /programs/{programId}/webhook/deliveries?verificationId=', () => {
  it('passes the verification filter to the notifier', async () => {
    const res = await get(`${deliveriesPath}?verificationId=${verificationId}&limit=5`);
    expect(res.status).toBe(200);
    expect(calls).toEqual([['listWebhookDeliveries', { programId, limit: 5, cursor: '', verificationId }]]);
  });

  it.each(['x', 'AB'.repeat(12), ''])(
    'refuses the verificationId %j with 400 invalidRequest, without a call',
    async (id) => {
      const res = await get(`${deliveriesPath}?verificationId=${id}`);
      expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
      expect(calls).toEqual([]);
    },
  );
});

describe('POST /programs/{programId}/webhook/deliveries/{deliveryId}/resend', () => {
  const resendPath = `/programs/${programId}/webhook/deliveries/${deliveryId}/resend`;
  async function post(path: string, token: string | null = operator) {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('answers 202 with the new delivery as the log lists it', async () => {
    const res = await post(resendPath);
    expect([res.status, res.body]).toEqual([
      202,
      {
        webhookId: `msg_${'34'.repeat(12)}`,
        verificationId,
        notifierEventType: 'SUCCESS',
        status: 'PENDING',
        created: '2025-03-01T12:00:00.000Z',
        nextAttemptAt: '2025-03-01T12:00:00.000Z',
        deliveredAt: null,
        refireOf: deliveryId,
        attempts: [],
      },
    ]);
    expect(matches(WebhookDelivery, res.body)).toBe(true);
    expect(calls).toEqual([['resendWebhookDelivery', { programId, webhookId: deliveryId }]]);
  });

  it('needs the operator token, before any call', async () => {
    for (const token of [null, accountToken]) expect((await post(resendPath, token)).status).toBe(401);
    expect(calls).toEqual([]);
  });

  it.each([
    ['a malformed program id', `/programs/nope/webhook/deliveries/${deliveryId}/resend`, 'Program not found'],
    [
      'a delivery id the notifier cannot have given',
      `/programs/${programId}/webhook/deliveries/msg_1/resend`,
      'Delivery not found',
    ],
    [
      'an upper-case delivery id',
      `/programs/${programId}/webhook/deliveries/MSG_${'12'.repeat(12)}/resend`,
      'Delivery not found',
    ],
  ])('answers %s 404 without a call', async (_what, path, message) => {
    const res = await post(path);
    expect([res.status, res.body.systemErrorMessage]).toEqual([404, message]);
    expect(calls).toEqual([]);
  });

  it('answers the notifier’s NOT_FOUND 404', async () => {
    planned.set('resendWebhookDelivery', notFound('No such delivery of the program'));
    const res = await post(resendPath);
    expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'No such delivery of the program' }]);
  });

  it.each(['deliveryPending', 'noWebhook', 'notOptedIn', 'webhookDisabled'])(
    'answers the notifier’s refusal %s 409 with it as errorId',
    async (reason) => {
      planned.set('resendWebhookDelivery', failedPrecondition(`refused: ${reason}`, { reason }));
      const res = await post(resendPath);
      expect([res.status, res.body]).toEqual([
        409,
        { errorIds: [reason], systemErrorMessage: `refused: ${reason}` },
      ]);
      expect(matches(ErrorResponse, res.body)).toBe(true);
    },
  );

  it('answers a FAILED_PRECONDITION of another reason as the error table does (not 409)', async () => {
    planned.set('resendWebhookDelivery', failedPrecondition('something else', { reason: 'otherReason' }));
    expect((await post(resendPath)).status).toBe(400);
  });
});

describe('GET /messages', () => {
  it('answers one page of messages, not to be cached', async () => {
    const res = await get('/messages');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      messages: [
        {
          messageId: 'm2',
          kind: 'SEND_LINK',
          requestId,
          programId,
          verificationId: null,
          channel: 'SMS',
          recipient: '+14155550100',
          subject: null,
          body: 'Verify: https://eligo.example.com/v/1',
          status: 'CAPTURED',
          created: '2025-03-01T11:00:00.000Z',
          sentAt: null,
          error: null,
        },
        {
          messageId: 'm1',
          kind: 'SEND_LINK',
          requestId,
          programId,
          verificationId: null,
          channel: 'EMAIL',
          recipient: 'jane@example.com',
          subject: 'Verify your eligibility',
          body: 'Follow https://eligo.example.com/v/1',
          status: 'FAILED',
          created: '2025-03-01T10:00:00.000Z',
          sentAt: null,
          error: '550 mailbox unavailable',
        },
      ],
      nextCursor: null,
    });
    expect(matches(SendLinkMessagePage, res.body)).toBe(true);
    expect(calls).toEqual([['listMessages', { limit: 0, cursor: '', requestId: '', verificationId: '' }]]);
  });

  it('passes the page size, cursor and send-link request on, and shows a sent message', async () => {
    planned.set('listMessages', {
      messages: [
        notifierV1.Message.fromPartial({
          ...messages().messages[1],
          status: MessageStatus.MESSAGE_STATUS_SENT,
          sentAt: at('10:00:02'),
          error: '',
        }),
      ],
      nextCursor: 'more',
    });
    const res = await get(`/messages?limit=1&cursor=abc&requestId=${requestId}`);
    expect(res.body).toMatchObject({
      messages: [{ messageId: 'm1', status: 'SENT', sentAt: '2025-03-01T10:00:02.000Z', error: null }],
      nextCursor: 'more',
    });
    expect(calls).toEqual([['listMessages', { limit: 1, cursor: 'abc', requestId, verificationId: '' }]]);
  });

  it('passes the verification filter on, and shows an email-loop code with its verification', async () => {
    const sendId = '12'.repeat(12);
    planned.set('listMessages', {
      messages: [
        notifierV1.Message.fromPartial({
          messageId: 'm3',
          kind: MessageKind.MESSAGE_KIND_EMAIL_LOOP,
          requestId: sendId,
          programId,
          verificationId,
          channel: MessageChannel.MESSAGE_CHANNEL_EMAIL,
          recipient: 'jane@example.edu',
          subject: 'Your verification code',
          body: 'Your verification code is:\n\n    042917\n',
          status: MessageStatus.MESSAGE_STATUS_CAPTURED,
          createdAt: at('12:00:00'),
        }),
      ],
      nextCursor: '',
    });
    const res = await get(`/messages?verificationId=${verificationId}&limit=5`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      messages: [
        {
          messageId: 'm3',
          kind: 'EMAIL_LOOP',
          requestId: sendId,
          programId,
          verificationId,
          channel: 'EMAIL',
          recipient: 'jane@example.edu',
          subject: 'Your verification code',
          body: 'Your verification code is:\n\n    042917\n',
          status: 'CAPTURED',
          created: '2025-03-01T12:00:00.000Z',
          sentAt: null,
          error: null,
        },
      ],
      nextCursor: null,
    });
    expect(matches(SendLinkMessagePage, res.body)).toBe(true);
    expect(calls).toEqual([['listMessages', { limit: 5, cursor: '', requestId: '', verificationId }]]);
  });

  it('reads a message without a kind (a notifier from before email-loop messages) as SEND_LINK', async () => {
    planned.set('listMessages', {
      messages: [{ ...messages().messages[0]!, kind: MessageKind.MESSAGE_KIND_UNSPECIFIED }],
      nextCursor: '',
    });
    const res = await get('/messages');
    expect(res.body).toMatchObject({
      messages: [{ messageId: 'm2', kind: 'SEND_LINK', verificationId: null }],
    });
  });

  it('answers 500 without detail when the notifier replies with a kind it does not know', async () => {
    planned.set('listMessages', {
      messages: [{ ...messages().messages[0]!, kind: 99 as notifierV1.MessageKind }],
      nextCursor: '',
    });
    const res = await get('/messages');
    expect([res.status, res.body]).toEqual([
      500,
      { errorIds: ['internalServerError'], systemErrorMessage: 'Internal server error' },
    ]);
  });

  it('answers the notifier’s refusal of a cursor 400 ER invalidRequest', async () => {
    planned.set('listMessages', invalidArgument('Invalid cursor'));
    const res = await get('/messages?cursor=forged');
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'Invalid cursor' },
    ]);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=',
    'requestId=nope',
    `requestId=${'AB'.repeat(12)}`,
    'requestId=',
    'verificationId=x',
    `verificationId=${'EF'.repeat(12)}`,
    `verificationId=${'ef'.repeat(13)}`,
    'verificationId=',
    'cursor=a&cursor=b',
    'cursor=%01',
    'cursor=',
    'status=SENT',
  ])('refuses %s with 400 invalidRequest, without a call', async (query) => {
    const res = await get(`/messages?${query}`);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });
});
