import { programsProgramV1 } from '@eligo/proto';
import { AuthCache } from '../auth/auth-cache';
import { createAuthenticator } from '../auth/authenticator';
import type { ProgramsClient } from '../clients/programs.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';
import { createDocumentValidator } from '../../test/document-validator';

// The webhook's opt-in notifications (notifierEventTypes) through the program routes as mounted by mountRest,
// against a recording programs stand-in: REST v2 POST .../webhook and the admin API's program settings.
const { WebhookNotification } = programsProgramV1;
const operator = TEST_OPERATOR_TOKEN;
const accountToken = 'eligo_account_token';
const programId = 'ab'.repeat(12);
const accountId = 'cd'.repeat(12);
const callbackUri = 'https://hooks.example.com/eligo';

const program = (notifications: programsProgramV1.WebhookNotification[]) =>
  programsProgramV1.Program.fromPartial({
    programId,
    accountId,
    name: 'Spring',
    segment: 'student',
    webhook: { callbackUri, createdAt: new Date(1_700_000_000_000), notifications },
  });

type Notifications = programsProgramV1.WebhookNotification[];
interface WebhookCall {
  notifications?: Notifications;
  program?: { webhook?: { notifications: Notifications } };
}

/** Records each call and answers the program with the webhook notifications the request set. */
const calls: [string, unknown][] = [];
const answer = (method: string) => async (req: WebhookCall) => {
  calls.push([method, req]);
  const stored = program(req.notifications ?? req.program?.webhook?.notifications ?? []);
  return { program: stored, signingSecret: 'whsec_1', webhookSigningSecret: 'whsec_1' };
};
const programs = standIn<ProgramsClient>('programs', {
  createWebhook: answer('createWebhook'),
  updateProgram: answer('updateProgram'),
  createProgram: answer('createProgram'),
  sendLink: async (req: unknown) => {
    calls.push(['sendLink', req]);
    return { requestId: '12'.repeat(12) };
  },
});

let url: string;
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({
    bodyLimit: '10kb',
    programs,
    authenticator: createAuthenticator({
      operatorToken: operator,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async ({ token }) => {
        if (token !== accountToken) {
          throw Object.assign(new Error('bad token'), {
            code: 16,
            details: 'bad token',
            metadata: undefined,
          });
        }
        return { accountId, tokenId: 'ef'.repeat(12), roles: [] };
      },
    }),
  });
  url = `${app.origin}/rest`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
});

async function call(method: string, path: string, body: unknown, token: string) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { webhook: Record<string, unknown> } & Record<string, unknown>,
  };
}

describe('POST /rest/v2/program/{programId}/webhook', () => {
  const path = `/v2/program/${programId}/webhook`;

  it('passes the opted-in notifications on and shows them in the program configuration', async () => {
    const res = await call(
      'POST',
      path,
      { callbackUri, notifierEventTypes: ['EXPIRATION', 'DOCUMENT_REJECTED'] },
      accountToken,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.webhook).toEqual({
      callbackUri,
      notifierEventTypes: ['DOCUMENT_REJECTED', 'EXPIRATION'],
      created: 1_700_000_000_000,
      signingSecret: 'whsec_1',
    });
    expect(createDocumentValidator().check('ProgramConfiguration', res.body)).toBeUndefined();
    expect(calls).toEqual([
      [
        'createWebhook',
        {
          programId,
          accountId,
          callbackUri,
          notifications: [
            WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
            WebhookNotification.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED,
          ],
        },
      ],
    ]);
  });

  it('opts in to none when notifierEventTypes is left out (success only)', async () => {
    const res = await call('POST', path, { callbackUri }, accountToken);
    expect(res.status).toBe(200);
    expect(res.body.webhook.notifierEventTypes).toEqual([]);
    expect(calls).toEqual([['createWebhook', { programId, accountId, callbackUri, notifications: [] }]]);
  });

  it.each([
    [
      ['SUCCESS'],
      'body.notifierEventTypes[0] must be one of DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION',
    ],
    [
      ['expiration'],
      'body.notifierEventTypes[0] must be one of DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION',
    ],
    ['EXPIRATION', 'body.notifierEventTypes must be array'],
    [
      ['EXPIRATION', 'EXPIRATION'],
      expect.stringMatching(/^body\.notifierEventTypes must NOT have duplicate items/),
    ],
  ])('refuses notifierEventTypes %j with 400 invalidRequest, without a call', async (types, message) => {
    const res = await call('POST', path, { callbackUri, notifierEventTypes: types }, accountToken);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });
});

describe('the webhook setting of the admin API’s programs', () => {
  it('PATCH sets a webhook with its notifications', async () => {
    const res = await call(
      'PATCH',
      `/admin/v1/programs/${programId}`,
      { webhook: { callbackUri, notifierEventTypes: ['MAX_DOC_UPLOAD_ATTEMPTS'] } },
      operator,
    );
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ callbackUri, notifierEventTypes: ['MAX_DOC_UPLOAD_ATTEMPTS'] });
    expect(calls).toEqual([
      [
        'updateProgram',
        expect.objectContaining({
          updateMask: ['webhook'],
          program: expect.objectContaining({
            webhook: {
              callbackUri,
              createdAt: undefined,
              notifications: [WebhookNotification.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS],
            },
          }),
        }),
      ],
    ]);
  });

  it('POST refuses an unknown notification with 400 invalidRequest, without a call', async () => {
    const res = await call(
      'POST',
      '/admin/v1/programs',
      { accountId, name: 'P', segment: 'student', webhook: { callbackUri, notifierEventTypes: ['REFUND'] } },
      operator,
    );
    expect([res.status, res.body]).toEqual([
      400,
      {
        errorIds: ['invalidRequest'],
        systemErrorMessage:
          'body.webhook.notifierEventTypes[0] must be one of DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION',
      },
    ]);
    expect(calls).toEqual([]);
  });
});

describe('POST /rest/v2/program/{programId}/sendLink', () => {
  const send = async (body: unknown) => {
    const res = await fetch(`${url}/v2/program/${programId}/sendLink`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accountToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as unknown) };
  };

  it('takes an externalUserId for compatibility and passes nothing of it on', async () => {
    const res = await send({
      email: 'jane@example.com',
      trackingId: 'order-1',
      externalUserId: 'crm-user-7',
    });
    expect(res.status).toBe(204);
    expect(calls).toEqual([
      [
        'sendLink',
        {
          programId,
          accountId,
          recipient: { $case: 'email', email: 'jane@example.com' },
          trackingId: 'order-1',
        },
      ],
    ]);
  });

  it.each<[string, object, string]>([
    [
      'a control character in trackingId',
      { trackingId: 'a\u0000b' },
      'body.trackingId must not contain control characters',
    ],
    [
      'a line break in trackingId',
      { trackingId: 'a\nb' },
      'body.trackingId must not contain control characters',
    ],
    [
      'a trackingId over 100 characters',
      { trackingId: 'x'.repeat(101) },
      'body.trackingId must NOT have more than 100 characters',
    ],
    [
      'an empty externalUserId',
      { externalUserId: '' },
      'body.externalUserId must NOT have fewer than 1 characters',
    ],
    [
      'a control character in externalUserId',
      { externalUserId: 'a\u0007' },
      'body.externalUserId must not contain control characters',
    ],
    [
      'an externalUserId over 256 characters',
      { externalUserId: 'x'.repeat(257) },
      'body.externalUserId must NOT have more than 256 characters',
    ],
    [
      'an unknown property',
      { userId: 'x' },
      'body has unexpected property userId (allowed: email, phoneNumber, trackingId, externalUserId)',
    ],
  ])('refuses %s with 400 invalidRequest, without a call', async (_name, extra, message) => {
    const res = await send({ email: 'jane@example.com', ...extra });
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });
});
