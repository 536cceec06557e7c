import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi } from '../support/programs-api';

// REST v2 program administration (the spec's "Program administration" table) with an account token.
let eligo: ServiceUnderTest;
let api: ProgramsApi;

beforeAll(async () => {
  eligo = await startAllInProcess();
  api = programsApi(eligo);
}, 120_000);
afterAll(async () => eligo?.stop());

const invalidRequest = (message: string | RegExp) => ({
  errorIds: ['invalidRequest'],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});
const noProgram = { errorIds: ['noProgram'], systemErrorMessage: expect.any(String) };

describe('GET /program/{programId}/theme', () => {
  it("returns the program's messages over the defaults, and its CSS", async () => {
    const { accountId } = await api.createAccount();
    const { token } = await api.createToken(accountId);
    const { programId } = await api.createProgram(accountId, {
      theme: {
        intl: {
          locale: 'fr-FR',
          messages: { title: 'Bonjour' },
          errorId: { invalidEmail: 'Courriel ?' },
          locales: { 'de-de': { messages: { title: 'Hallo' } } },
        },
        customCss: 'h1{}',
      },
    });
    const res = await api.v2('GET', `/program/${programId}/theme`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      intl: {
        locale: 'fr-FR',
        messages: expect.objectContaining({ title: 'Bonjour' }),
        errorId: expect.any(Object),
        // Translations as set (their tags in canonical case), without the defaults merged in.
        locales: { 'de-DE': { messages: { title: 'Hallo' }, errorId: {} } },
      },
      customCss: 'h1{}',
    });
    // Every label of the hosted form has a default text too.
    expect(res.body.intl.messages['step.collectPersonalInfo.submit']).toBe('Verify my eligibility');
    expect(res.body.intl.errorId.invalidEmail).toBe('Courriel ?');
    // The defaults give user-facing text for the other error ids.
    expect(typeof res.body.intl.errorId.noProgram).toBe('string');
  });

  it('answers 404 noProgram for an unknown or malformed program id', async () => {
    const { token } = await api.tenant('T');
    expect(await api.v2('GET', `/program/${unknownId}/theme`, { token: token.token })).toMatchObject({
      status: 404,
      body: noProgram,
    });
    expect(await api.v2('GET', '/program/nope/theme', { token: token.token })).toMatchObject({
      status: 404,
      body: noProgram,
    });
  });
});

describe('verificationLimit', () => {
  it('creates (200 with the program configuration), refuses a second (409), deletes (200)', async () => {
    const { token, program } = await api.tenant('Limits');
    const path = `/program/${program.programId}/verificationLimit`;
    const created = await api.v2('POST', path, { token: token.token, body: { quantity: 2, days: 30 } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      ...program,
      verificationLimit: { quantity: 2, days: 30 },
      updated: expect.any(Number),
    });
    const again = await api.v2('POST', path, { token: token.token, body: { quantity: 3, days: 7 } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      errorIds: ['verificationLimitAlreadyExists'],
      systemErrorMessage: expect.any(String),
    });
    const deleted = await api.v2('DELETE', path, { token: token.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.verificationLimit).toBeNull();
    expect(deleted.body.programId).toBe(program.programId);
    // Deleted, it can be created again.
    expect((await api.v2('POST', path, { token: token.token, body: { quantity: 3, days: 7 } })).status).toBe(
      200,
    );
  });

  it.each([
    ['a missing field', { quantity: 2 }, 'body.days is required'],
    ['a wrong type', { quantity: '2', days: 30 }, 'body.quantity must be integer'],
    ['zero', { quantity: 0, days: 30 }, 'body.quantity must be >= 1'],
    [
      'an unknown property',
      { quantity: 2, days: 30, perIp: true },
      'body has unexpected property perIp (allowed: quantity, days)',
    ],
    ['a value the service refuses', { quantity: 2, days: 100_000 }, /days/],
  ])('refuses %s with 400 invalidRequest', async (_name, body, message) => {
    const { token, program } = await api.tenant('Limits');
    const res = await api.v2('POST', `/program/${program.programId}/verificationLimit`, {
      token: token.token,
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(message));
  });

  it('answers 404 for an unknown program on both methods', async () => {
    const { token } = await api.tenant('Limits');
    const path = `/program/${unknownId}/verificationLimit`;
    expect(await api.v2('POST', path, { token: token.token, body: { quantity: 1, days: 1 } })).toMatchObject({
      status: 404,
      body: noProgram,
    });
    expect(await api.v2('DELETE', path, { token: token.token })).toMatchObject({
      status: 404,
      body: noProgram,
    });
  });
});

describe('webhook', () => {
  it('creates one with its signing secret shown once, refuses a second (409), deletes it', async () => {
    const { account, token, program } = await api.tenant('Hooks');
    const path = `/program/${program.programId}/webhook`;
    const created = await api.v2('POST', path, {
      token: token.token,
      body: { callbackUri: 'https://hooks.example.com/a' },
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual({
      ...program,
      webhook: {
        callbackUri: 'https://hooks.example.com/a',
        notifierEventTypes: [],
        created: expect.any(Number),
        signingSecret: expect.any(String),
      },
      updated: expect.any(Number),
    });
    expect(created.body.webhook.signingSecret.length).toBeGreaterThanOrEqual(32);
    // Read back, the secret is gone.
    const read = await api.admin('GET', `/programs/${program.programId}`);
    expect(read.body.webhook).toEqual({
      callbackUri: 'https://hooks.example.com/a',
      notifierEventTypes: [],
      created: created.body.webhook.created,
    });
    expect(read.body.accountId).toBe(account.accountId);

    const again = await api.v2('POST', path, {
      token: token.token,
      body: { callbackUri: 'https://hooks.example.com/b' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      errorIds: ['webhookAlreadyExists'],
      systemErrorMessage: expect.any(String),
    });

    // The spec's walkthrough sends the callbackUri with the DELETE.
    const deleted = await api.v2('DELETE', path, {
      token: token.token,
      body: { callbackUri: 'https://hooks.example.com/a' },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.webhook).toBeNull();
    const recreated = await api.v2('POST', path, {
      token: token.token,
      body: { callbackUri: 'https://hooks.example.com/b' },
    });
    expect(recreated.status).toBe(200);
    expect(recreated.body.webhook.signingSecret).not.toBe(created.body.webhook.signingSecret);
    // And a DELETE without a body works too.
    expect((await api.v2('DELETE', path, { token: token.token })).body.webhook).toBeNull();
  });

  it.each([
    ['a missing callbackUri', 'POST', {}, 'body.callbackUri is required'],
    [
      'a callbackUri that is not a URI',
      'POST',
      { callbackUri: 'not a uri' },
      'body.callbackUri must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no ' +
        'user name or password), without a fragment (#)',
    ],
    [
      'an unknown property',
      'POST',
      { callbackUri: 'https://h.example.com', secret: 'x' },
      /unexpected property secret/,
    ],
    ['an unknown property on DELETE', 'DELETE', { url: 'https://h.example.com' }, /unexpected property url/],
    // Refused when configured, as the notifier would refuse it at every delivery (no allow-list here).
    [
      'a callbackUri on a loopback address',
      'POST',
      { callbackUri: 'http://127.0.0.1:8080/hook' },
      'callbackUri: must not be a non-public IP address (loopback)',
    ],
  ])('refuses %s with 400 invalidRequest', async (_name, method, body, message) => {
    const { token, program } = await api.tenant('Hooks');
    const res = await api.v2(method, `/program/${program.programId}/webhook`, { token: token.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(message));
  });

  it('answers 404 for an unknown program', async () => {
    const { token } = await api.tenant('Hooks');
    const path = `/program/${unknownId}/webhook`;
    const body = { callbackUri: 'https://hooks.example.com/a' };
    expect(await api.v2('POST', path, { token: token.token, body })).toMatchObject({
      status: 404,
      body: noProgram,
    });
    expect(await api.v2('DELETE', path, { token: token.token })).toMatchObject({
      status: 404,
      body: noProgram,
    });
  });
});

describe('POST /program/{programId}/sendLink', () => {
  it.each([
    ['an email', { email: 'someone@example.com' }],
    ['a phone number and a tracking id', { phoneNumber: '+14155550100', trackingId: 'crm-42' }],
  ])('accepts %s with 204 and no body', async (_name, body) => {
    const { token, program } = await api.tenant('Links');
    const res = await api.v2('POST', `/program/${program.programId}/sendLink`, { token: token.token, body });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
  });

  it.each([
    ['no recipient', { trackingId: 'x' }, 'body must have exactly one of email, phoneNumber'],
    [
      'two recipients',
      { email: 'a@example.com', phoneNumber: '+14155550100' },
      'body must have exactly one of email, phoneNumber',
    ],
    ['an unknown property', { email: 'a@example.com', name: 'Ann' }, /unexpected property name/],
    ['an email the service refuses', { email: 'not-an-email' }, /email/],
    ['a phone number the service refuses', { phoneNumber: '12' }, /phoneNumber/],
  ])('refuses %s with 400 invalidRequest', async (_name, body, message) => {
    const { token, program } = await api.tenant('Links');
    const res = await api.v2('POST', `/program/${program.programId}/sendLink`, { token: token.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(message));
  });

  it('answers 404 for an unknown program', async () => {
    const { token } = await api.tenant('Links');
    const res = await api.v2('POST', `/program/${unknownId}/sendLink`, {
      token: token.token,
      body: { email: 'a@example.com' },
    });
    expect(res).toMatchObject({ status: 404, body: noProgram });
  });
});

describe('bodies', () => {
  it.each([
    ['POST', 'verificationLimit'],
    ['POST', 'webhook'],
    ['DELETE', 'webhook'],
    ['POST', 'sendLink'],
  ])(
    '%s .../%s answers 413 for a body over the limit and 400 for malformed JSON',
    async (method, endpoint) => {
      const { token, program } = await api.tenant('Bodies');
      const path = `/program/${program.programId}/${endpoint}`;
      const big = await api.v2(method, path, {
        token: token.token,
        body: { pad: 'x'.repeat(2 * 1024 * 1024) },
      });
      expect(big.status).toBe(413);
      expect(big.body).toEqual(invalidRequest(/too large/));
      const bad = await api.v2(method, path, { token: token.token, raw: '{"callbackUri": ' });
      expect(bad.status).toBe(400);
      expect(bad.body.errorIds).toEqual(['invalidRequest']);
    },
  );

  it('refuses a body that is not JSON where one is required', async () => {
    const { token, program } = await api.tenant('Bodies');
    const res = await api.v2('POST', `/program/${program.programId}/webhook`, {
      token: token.token,
      raw: 'callbackUri=https://h.example.com',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(/body is required/));
  });
});

it('documents every program endpoint, its body and its statuses in the OpenAPI document', async () => {
  const doc = (await api.v2('GET', '/openapi.json')).body;
  const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
  // 400 for a path that is not percent-encoded UTF-8, 431 for a request head over 16 KiB and 500 (its body
  // pinned) are declared by every operation.
  expect(statuses('/program/{programId}/theme', 'get')).toEqual([
    '200',
    '400',
    '401',
    '404',
    '431',
    '500',
    '503',
  ]);
  expect(statuses('/program/{programId}/verificationLimit', 'post')).toEqual([
    '200',
    '400',
    '401',
    '404',
    '409',
    '413',
    '422',
    '431',
    '500',
    '503',
  ]);
  expect(statuses('/program/{programId}/webhook', 'post')).toEqual([
    '200',
    '400',
    '401',
    '404',
    '409',
    '413',
    '422',
    '431',
    '500',
    '503',
  ]);
  // 409 and 422 come with the Idempotency-Key every POST takes, 429 with the send-link rate limit.
  expect(statuses('/program/{programId}/sendLink', 'post')).toEqual([
    '204',
    '400',
    '401',
    '404',
    '409',
    '413',
    '422',
    '429',
    '431',
    '500',
    '503',
  ]);
  expect(doc.paths['/program/{programId}/sendLink'].post.tags).toEqual(['program']);
  expect(doc.paths['/accounts'].servers[0].url).toBe(`${eligo.config.http.publicBaseUrl}/rest/admin/v1`);
  expect(doc.paths['/token'].servers[0].url).toBe(`${eligo.config.http.publicBaseUrl}/rest/oauth`);
  expect(doc.paths['/token'].post.tags).toEqual(['oauth']);
  expect(doc.components.schemas.SendLinkRequest.additionalProperties).toBe(false);
});
