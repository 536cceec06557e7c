import { generateKeyPairSync } from 'node:crypto';
import { waitFor, type ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi } from '../support/programs-api';

// The admin API (/rest/admin/v1, operator token) through the gateway, against the real programs service.
let eligo: ServiceUnderTest;
let api: ProgramsApi;

beforeAll(async () => {
  eligo = await startAllInProcess();
  api = programsApi(eligo);
}, 120_000);
afterAll(async () => eligo?.stop());

const hex24 = expect.stringMatching(/^[0-9a-f]{24}$/);
const invalidRequest = (message: string | RegExp) => ({
  errorIds: ['invalidRequest'],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});

describe('accounts and tokens', () => {
  it('creates an account: 201 with its id, name and creation time', async () => {
    const before = Date.now();
    const res = await api.admin('POST', '/accounts', { body: { name: 'Acme Retail' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ accountId: hex24, name: 'Acme Retail', created: expect.any(Number) });
    expect(res.body.created).toBeGreaterThanOrEqual(before - 1000);
  });

  it.each([
    ['a missing name', {}, 'body.name is required'],
    ['a name of the wrong type', { name: 42 }, 'body.name must be string'],
    ['an unknown property', { name: 'A', plan: 'gold' }, 'body has unexpected property plan (allowed: name)'],
  ])('refuses %s with 400 invalidRequest naming the field', async (_name, body, message) => {
    const res = await api.admin('POST', '/accounts', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(message));
  });

  it('issues a token with client credentials, shown once and not cacheable', async () => {
    const { accountId } = await api.createAccount();
    const res = await api.admin('POST', `/accounts/${accountId}/tokens`, {
      body: { name: 'reporting', roles: ['REPORTER', 'PII'] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      tokenId: hex24,
      token: expect.stringMatching(/^eligo_/),
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      name: 'reporting',
      roles: ['REPORTER', 'PII'],
      created: expect.any(Number),
    });
    // The token works on a token endpoint at once.
    expect((await api.v2('GET', '/info', { token: res.body.token })).status).toBe(200);
  });

  it('refuses an unknown role with 400, and answers 404 for an account that does not exist', async () => {
    const { accountId } = await api.createAccount();
    const badRole = await api.admin('POST', `/accounts/${accountId}/tokens`, {
      body: { name: 't', roles: ['ROOT'] },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toEqual(invalidRequest('body.roles[0] must be one of REPORTER, PII, BULK_VERIFIER'));
    const unknown = await api.admin('POST', `/accounts/${unknownId}/tokens`, { body: { name: 't' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ systemErrorMessage: expect.any(String) });
    // A malformed id is answered exactly like an unknown one.
    const malformed = await api.admin('POST', '/accounts/NOT-AN-ID/tokens', { body: { name: 't' } });
    expect(malformed).toMatchObject({ status: 404, body: unknown.body });
  });

  it('revokes a token (204): it stops working; unknown tokens and tokens of another account are 404', async () => {
    const { accountId } = await api.createAccount();
    const other = await api.createAccount('Other');
    const issued = await api.createToken(accountId);
    expect((await api.admin('DELETE', `/accounts/${other.accountId}/tokens/${issued.tokenId}`)).status).toBe(
      404,
    );
    expect((await api.admin('DELETE', `/accounts/${accountId}/tokens/${unknownId}`)).status).toBe(404);
    expect((await api.admin('DELETE', `/accounts/${accountId}/tokens/xyz`)).status).toBe(404);
    const res = await api.admin('DELETE', `/accounts/${accountId}/tokens/${issued.tokenId}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await api.v2('GET', '/info', { token: issued.token })).status).toBe(401);
  });
});

describe('programs', () => {
  it('creates a program with defaults: test mode, no code, every field present', async () => {
    const { accountId } = await api.createAccount();
    const res = await api.admin('POST', '/programs', {
      body: { accountId, name: 'Spring', segment: 'student' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      programId: hex24,
      accountId,
      name: 'Spring',
      segment: 'student',
      subSegments: [],
      mode: 'test',
      startDate: null,
      endDate: null,
      offerType: 'noCode',
      rewardCode: null,
      rewardCodesRemaining: 0,
      redirectUrl: null,
      consolationRewardCode: null,
      minAge: null,
      maxAge: null,
      countries: [],
      maxRejections: expect.any(Number),
      maxReviewTime: null,
      estimatedReviewTime: null,
      organizationRules: { types: [], countries: [], includeIds: [], excludeIds: [] },
      theme: { intl: { locale: expect.any(String), messages: {}, errorId: {}, locales: {} }, customCss: '' },
      webhook: null,
      verificationLimit: null,
      subjectTokenKey: null,
      requireAccountTokenToCreate: false,
      embedOrigins: [],
      instantMatch: { sources: [], http: null, emailLoop: false },
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    expect((await api.admin('GET', `/programs/${res.body.programId}`)).body).toEqual(res.body);
  });

  it('creates a program with every setting, and shows the webhook secret only in that reply', async () => {
    const { accountId } = await api.createAccount();
    const res = await api.admin('POST', '/programs', {
      body: {
        accountId,
        name: 'Heroes',
        segment: 'military',
        subSegments: ['activeDuty', 'veteran'],
        mode: 'live',
        startDate: '2030-01-15',
        endDate: '2030-06-01T12:00:00Z',
        offerType: 'staticCode',
        rewardCode: 'HERO10',
        redirectUrl: 'https://shop.example.com/thanks',
        consolationRewardCode: 'THANKS5',
        countries: ['US'],
        maxRejections: 2,
        maxReviewTime: '20_MIN',
        estimatedReviewTime: 'A_FEW_MINUTES',
        organizationRules: { excludeIds: [9] },
        theme: { intl: { locale: 'en-US', messages: { title: 'Thank you' } }, customCss: 'body{color:red}' },
        webhook: { callbackUri: 'https://hooks.example.com/eligo' },
        verificationLimit: { quantity: 2, days: 30 },
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      mode: 'live',
      subSegments: ['activeDuty', 'veteran'],
      startDate: '2030-01-15T00:00:00.000Z',
      endDate: '2030-06-01T12:00:00.000Z',
      offerType: 'staticCode',
      rewardCode: 'HERO10',
      redirectUrl: 'https://shop.example.com/thanks',
      consolationRewardCode: 'THANKS5',
      countries: ['US'],
      maxRejections: 2,
      maxReviewTime: '20_MIN',
      estimatedReviewTime: 'A_FEW_MINUTES',
      organizationRules: { types: [], countries: [], includeIds: [], excludeIds: [9] },
      theme: { intl: { locale: 'en-US', messages: { title: 'Thank you' } }, customCss: 'body{color:red}' },
      webhook: {
        callbackUri: 'https://hooks.example.com/eligo',
        notifierEventTypes: [],
        created: expect.any(Number),
        signingSecret: expect.any(String),
      },
      verificationLimit: { quantity: 2, days: 30 },
    });
    const read = await api.admin('GET', `/programs/${res.body.programId}`);
    expect(read.body.webhook).toEqual({
      callbackUri: 'https://hooks.example.com/eligo',
      notifierEventTypes: [],
      created: res.body.webhook.created,
    });
  });

  it.each([
    [
      'an unknown property',
      { unknownSetting: true },
      /^body has unexpected property unknownSetting \(allowed: /,
    ],
    ['a wrong type', { segment: 7 }, 'body.segment must be string'],
    ['an enum value that does not exist', { mode: 'production' }, 'body.mode must be one of test, live'],
    [
      'a date in neither form',
      { startDate: '15/01/2030' },
      /^body\.startDate must match format "date", or must match format "date-time"/,
    ],
    ['a segment the service does not know', { segment: 'astronaut' }, /segment/],
    [
      'a sub-segment of another segment',
      { subSegments: ['veteran'] },
      /student programs take no sub-segments/,
    ],
  ])('refuses %s with 400 invalidRequest', async (_name, settings, message) => {
    const { accountId } = await api.createAccount();
    const res = await api.admin('POST', '/programs', {
      body: { accountId, name: 'P', segment: 'student', ...settings },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(message));
  });

  it('answers 404 for a program of an account that does not exist', async () => {
    const res = await api.admin('POST', '/programs', {
      body: { accountId: unknownId, name: 'P', segment: 'student' },
    });
    expect(res.status).toBe(404);
  });

  it('answers 404 noProgram for an unknown program, and the same for a malformed id', async () => {
    const unknown = await api.admin('GET', `/programs/${unknownId}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ errorIds: ['noProgram'], systemErrorMessage: expect.any(String) });
    for (const id of ['abc', 'ABCDEF0123456789ABCDEF01', `${unknownId}0`]) {
      expect(await api.admin('GET', `/programs/${id}`)).toMatchObject({ status: 404, body: unknown.body });
    }
    const patch = await api.admin('PATCH', `/programs/${unknownId}`, { body: { name: 'x' } });
    expect(patch).toMatchObject({ status: 404, body: unknown.body });
  });
});

describe('PATCH /programs/{programId}: JSON merge patch', () => {
  it('sets the keys present, clears the ones given as null, leaves the rest alone', async () => {
    const { accountId } = await api.createAccount();
    const created = await api.createProgram(accountId, {
      redirectUrl: 'https://a.example.com',
      countries: ['US'],
      maxReviewTime: '2_HRS',
      estimatedReviewTime: 'A_FEW_HOURS',
    });
    const res = await api.admin('PATCH', `/programs/${created.programId}`, {
      body: { name: 'Renamed', redirectUrl: null, maxRejections: 5 },
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created,
      name: 'Renamed',
      redirectUrl: null,
      maxRejections: 5,
      updated: expect.any(Number),
    });
    // One review setting changed; the other two kept their values.
    expect(res.body).toMatchObject({ maxReviewTime: '2_HRS', estimatedReviewTime: 'A_FEW_HOURS' });
    expect((await api.admin('GET', `/programs/${created.programId}`)).body).toEqual(res.body);
  });

  it('accepts application/json too, and sets a webhook once (409 while one exists)', async () => {
    const { accountId } = await api.createAccount();
    const { programId } = await api.createProgram(accountId);
    const set = await api.admin('PATCH', `/programs/${programId}`, {
      body: { webhook: { callbackUri: 'https://hooks.example.com/a' }, mode: 'live' },
    });
    expect(set.status).toBe(200);
    expect(set.body.mode).toBe('live');
    expect(set.body.webhook).toEqual({
      callbackUri: 'https://hooks.example.com/a',
      notifierEventTypes: [],
      created: expect.any(Number),
      signingSecret: expect.any(String),
    });
    const again = await api.admin('PATCH', `/programs/${programId}`, {
      body: { webhook: { callbackUri: 'https://hooks.example.com/b' } },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      errorIds: ['webhookAlreadyExists'],
      systemErrorMessage: expect.any(String),
    });
    const cleared = await api.admin('PATCH', `/programs/${programId}`, { body: { webhook: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.webhook).toBeNull();
  });

  it.each([
    ['an empty patch', {}, 'body must NOT have fewer than 1 properties'],
    ['a key that cannot be patched', { accountId: unknownId }, /^body has unexpected property accountId/],
    ['a null for a key that cannot be cleared', { name: null }, 'body.name must be string'],
    ['a change the service refuses', { segment: 'military' }, /segment/],
  ])('refuses %s with 400 invalidRequest', async (_name, body, message) => {
    const { accountId } = await api.createAccount();
    const { programId } = await api.createProgram(accountId);
    const res = await api.admin('PATCH', `/programs/${programId}`, { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidRequest(message));
  });
});

describe('subjectTokenKey', () => {
  const keyPair = (type: 'ec' | 'ed25519') =>
    type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');

  it('is set on create, replaced and cleared by PATCH, and shown on GET', async () => {
    const { accountId } = await api.createAccount();
    const jwk = JSON.stringify(keyPair('ec').publicKey.export({ format: 'jwk' }));
    const created = await api.admin('POST', '/programs', {
      body: { accountId, name: 'Keyed', segment: 'driverLicense', subjectTokenKey: jwk },
    });
    expect(created.status).toBe(201);
    expect(created.body.subjectTokenKey).toBe(jwk);
    const path = `/programs/${created.body.programId}`;
    expect((await api.admin('GET', path)).body.subjectTokenKey).toBe(jwk);

    const pem = keyPair('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const replaced = await api.admin('PATCH', path, { body: { subjectTokenKey: pem } });
    expect([replaced.status, replaced.body.subjectTokenKey]).toEqual([200, pem.trim()]);
    // Other settings' patches keep it.
    expect((await api.admin('PATCH', path, { body: { name: 'Renamed' } })).body.subjectTokenKey).toBe(
      pem.trim(),
    );

    const cleared = await api.admin('PATCH', path, { body: { subjectTokenKey: null } });
    expect([cleared.status, cleared.body.subjectTokenKey]).toEqual([200, null]);
    expect((await api.admin('GET', path)).body.subjectTokenKey).toBeNull();
  });

  it.each([
    [
      'a private key',
      () =>
        JSON.stringify(
          generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
        ),
      'subjectTokenKey: must be a public key; this JWK has the private or secret member "d"',
    ],
    [
      'garbage',
      () => 'not a key',
      'subjectTokenKey: must be a JWK (JSON with "kty") or a PEM public key (-----BEGIN PUBLIC KEY-----)',
    ],
    [
      'more than 8 KiB',
      () => `{"kty":"EC","kid":"${'k'.repeat(8200)}"}`,
      'body.subjectTokenKey must NOT have more than 8192 characters',
    ],
  ])('refuses %s with 400 invalidRequest, on create and on PATCH', async (_name, key, message) => {
    const { accountId } = await api.createAccount();
    const created = await api.admin('POST', '/programs', {
      body: { accountId, name: 'P', segment: 'student', subjectTokenKey: key() },
    });
    expect([created.status, created.body]).toEqual([400, invalidRequest(message)]);
    const { programId } = await api.createProgram(accountId);
    const patched = await api.admin('PATCH', `/programs/${programId}`, { body: { subjectTokenKey: key() } });
    expect([patched.status, patched.body]).toEqual([400, invalidRequest(message)]);
    expect((await api.admin('GET', `/programs/${programId}`)).body.subjectTokenKey).toBeNull();
  });
});

describe('requireAccountTokenToCreate', () => {
  it("is set by PATCH, and then every creation path needs a token of the program's account", async () => {
    const owner = await api.tenant('Strict');
    const stranger = await api.tenant('Stranger');
    const { programId } = await api.createProgram(owner.account.accountId, { segment: 'age' });
    const path = `/programs/${programId}`;
    const patched = await api.admin('PATCH', path, { body: { requireAccountTokenToCreate: true } });
    expect([patched.status, patched.body.requireAccountTokenToCreate]).toEqual([200, true]);

    const start = (token?: string) => api.v2('POST', '/verification', { token, body: { programId } });
    const startAndSubmit = (token?: string) =>
      api.v2('POST', `/verification/program/${programId}/step/collectAgePersonalInfo`, {
        token,
        body: { firstName: 'Jane', lastName: 'Doe', birthDate: '1990-01-31', email: 'jane@example.com' },
      });
    for (const token of [undefined, 'garbage', stranger.token.token]) {
      for (const res of [await start(token), await startAndSubmit(token)]) {
        expect([res.status, res.body]).toEqual([
          401,
          { systemErrorMessage: 'Access token is empty or invalid' },
        ]);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    }
    expect((await start(owner.token.token)).status).toBe(200);
    expect((await startAndSubmit(owner.token.token)).body.currentStep).toBe('success');

    // null clears it: anyone may start one again, once the verification service's program cache (1 s by
    // default) has let go of the stricter one.
    const cleared = await api.admin('PATCH', path, { body: { requireAccountTokenToCreate: null } });
    expect(cleared.body.requireAccountTokenToCreate).toBe(false);
    await waitFor(
      'an anonymous start',
      async () => ((await start()).status === 200 ? true : undefined),
      5000,
    );
  });
});

describe('embedOrigins', () => {
  it('is set on create, answered normalised, replaced and cleared by PATCH, and kept by other patches', async () => {
    const { accountId } = await api.createAccount();
    const created = await api.admin('POST', '/programs', {
      body: {
        accountId,
        name: 'Embedded',
        segment: 'student',
        embedOrigins: [
          'https://Shop.Example:443',
          'https://checkout.shop.example:8443',
          'http://localhost:3000',
        ],
      },
    });
    const normalised = [
      'https://shop.example',
      'https://checkout.shop.example:8443',
      'http://localhost:3000',
    ];
    expect([created.status, created.body.embedOrigins]).toEqual([201, normalised]);
    const path = `/programs/${created.body.programId}`;
    expect((await api.admin('GET', path)).body.embedOrigins).toEqual(normalised);
    expect((await api.admin('PATCH', path, { body: { name: 'Renamed' } })).body.embedOrigins).toEqual(
      normalised,
    );

    const replaced = await api.admin('PATCH', path, {
      body: { embedOrigins: ['HTTPS://Partner.Example'] },
      contentType: 'application/merge-patch+json',
    });
    expect([replaced.status, replaced.body.embedOrigins]).toEqual([200, ['https://partner.example']]);
    const emptied = await api.admin('PATCH', path, { body: { embedOrigins: [] } });
    expect([emptied.status, emptied.body.embedOrigins]).toEqual([200, []]);
    await api.admin('PATCH', path, { body: { embedOrigins: ['https://partner.example'] } });
    const cleared = await api.admin('PATCH', path, { body: { embedOrigins: null } });
    expect([cleared.status, cleared.body.embedOrigins]).toEqual([200, []]);
    expect((await api.admin('GET', path)).body.embedOrigins).toEqual([]);
  });

  const notAnOrigin =
    'must be a web origin in ASCII, https://host[:port] (http only for localhost and 127.0.0.1), without path, ' +
    'query, fragment, user name or trailing slash; wildcards (https://*.example.com) are not allowed in this ' +
    'version: list each origin';
  it.each([
    ['a wildcard', ['https://*.example.com'], `body.embedOrigins[0] ${notAnOrigin}`],
    [
      'a trailing slash',
      ['https://a.example', 'https://shop.example/'],
      `body.embedOrigins[1] ${notAnOrigin}`,
    ],
    ['plain http beyond the local machine', ['http://shop.example'], `body.embedOrigins[0] ${notAnOrigin}`],
    [
      'one origin in two spellings (the service compares them normalised)',
      ['https://shop.example', 'https://SHOP.example:443'],
      'embedOrigins: https://shop.example is listed twice',
    ],
    [
      'more than 20',
      Array.from({ length: 21 }, (_, i) => `https://shop${i}.example`),
      'body.embedOrigins must NOT have more than 20 items',
    ],
  ])(
    'refuses %s with 400 invalidRequest naming it, on create and on PATCH',
    async (_name, origins, message) => {
      const { accountId } = await api.createAccount();
      const created = await api.admin('POST', '/programs', {
        body: { accountId, name: 'P', segment: 'student', embedOrigins: origins },
      });
      expect([created.status, created.body]).toEqual([400, invalidRequest(message)]);
      const { programId } = await api.createProgram(accountId, { embedOrigins: ['https://kept.example'] });
      const patched = await api.admin('PATCH', `/programs/${programId}`, { body: { embedOrigins: origins } });
      expect([patched.status, patched.body]).toEqual([400, invalidRequest(message)]);
      expect((await api.admin('GET', `/programs/${programId}`)).body.embedOrigins).toEqual([
        'https://kept.example',
      ]);
    },
  );
});

describe('POST /programs/{programId}/rewardCodes', () => {
  it('adds unique codes to the pool and counts what was added and what remains', async () => {
    const { accountId } = await api.createAccount();
    const { programId } = await api.createProgram(accountId, { offerType: 'rewardPool' });
    const first = await api.admin('POST', `/programs/${programId}/rewardCodes`, {
      body: { codes: ['A1', 'B2', 'A1'] },
    });
    expect(first).toMatchObject({ status: 200, body: { added: 2, remaining: 2 } });
    const second = await api.admin('POST', `/programs/${programId}/rewardCodes`, {
      body: { codes: ['B2', 'C3'] },
    });
    expect(second).toMatchObject({ status: 200, body: { added: 1, remaining: 3 } });
    expect((await api.admin('GET', `/programs/${programId}`)).body.rewardCodesRemaining).toBe(3);
  });

  it('takes 10000 codes in one call and refuses more, or none', async () => {
    const { accountId } = await api.createAccount();
    const { programId } = await api.createProgram(accountId, { offerType: 'rewardPool' });
    const codes = Array.from({ length: 10_000 }, (_, i) => `CODE-${i}`);
    const full = await api.admin('POST', `/programs/${programId}/rewardCodes`, { body: { codes } });
    expect(full).toMatchObject({ status: 200, body: { added: 10_000, remaining: 10_000 } });
    const tooMany = await api.admin('POST', `/programs/${programId}/rewardCodes`, {
      body: { codes: [...codes, 'X'] },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual(invalidRequest('body.codes must NOT have more than 10000 items'));
    const none = await api.admin('POST', `/programs/${programId}/rewardCodes`, { body: { codes: [] } });
    expect(none.status).toBe(400);
  });

  it('answers 404 noProgram for an unknown program', async () => {
    const res = await api.admin('POST', `/programs/${unknownId}/rewardCodes`, { body: { codes: ['A'] } });
    expect(res.status).toBe(404);
    expect(res.body.errorIds).toEqual(['noProgram']);
  });
});

describe('limits and authentication of the admin API', () => {
  it('answers 413 for a body over the configured limit, and 400 for malformed JSON', async () => {
    const { accountId } = await api.createAccount();
    const big = await api.admin('POST', '/programs', {
      body: { accountId, name: 'P', segment: 'student', theme: { customCss: 'x'.repeat(2 * 1024 * 1024) } },
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual(invalidRequest(/too large/));
    const bad = await api.admin('POST', '/accounts', { raw: '{"name": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.errorIds).toEqual(['invalidRequest']);
  });

  it('refuses account tokens, garbage and no token on every admin endpoint with 401', async () => {
    const { account, token, program } = await api.tenant('Tenant');
    const endpoints: [string, string, unknown?][] = [
      ['POST', '/accounts', { name: 'x' }],
      ['POST', `/accounts/${account.accountId}/tokens`, { name: 'x' }],
      ['DELETE', `/accounts/${account.accountId}/tokens/${token.tokenId}`],
      ['POST', '/programs', { accountId: account.accountId, name: 'P', segment: 'student' }],
      ['GET', `/programs/${program.programId}`],
      ['PATCH', `/programs/${program.programId}`, { name: 'stolen' }],
      ['POST', `/programs/${program.programId}/rewardCodes`, { codes: ['A'] }],
    ];
    for (const [method, path, body] of endpoints) {
      for (const bearer of [token.token, 'garbage', undefined]) {
        const res = await api.admin(method, path, { body, token: bearer });
        expect([method, path, res.status]).toEqual([method, path, 401]);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(res.body).toEqual({ systemErrorMessage: 'Access token is empty or invalid' });
      }
    }
    // Nothing changed: the token still works and the program kept its name.
    expect((await api.v2('GET', '/info', { token: token.token })).status).toBe(200);
    expect((await api.admin('GET', `/programs/${program.programId}`)).body.name).toBe(program.name);
  });
});
