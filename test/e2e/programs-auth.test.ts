import { allModules } from '@eligo/cli/modules';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { call, programsApi, type ProgramsApi, type Reply } from '../support/programs-api';

// Account tokens end to end: revocation reaching every gateway, and OAuth 2.0 client credentials.
let eligo: ServiceUnderTest;
let otherGateway: ServiceUnderTest;
let api: ProgramsApi;
let second: ProgramsApi;

// A long cache on both gateways: a revoked token is refused in time only because the revocation reaches them.
const longCache = { ELIGO_GATEWAY_AUTH_CACHE_MS: '60000' };

beforeAll(async () => {
  eligo = await startAllInProcess(longCache);
  api = programsApi(eligo);
  // A second gateway, as another replica would run: its own process state, the same services and Kafka.
  const services = ['programs', 'verification', 'documents', 'organizations', 'reports', 'notifier'];
  otherGateway = await startServiceUnderTest({
    modules: { gateway: allModules.gateway },
    targets: ['gateway'],
    adminToken: eligo.adminToken,
    env: {
      ...longCache,
      ...Object.fromEntries(
        services.map((s) => [`ELIGO_${s.toUpperCase()}_GRPC_ADDRESS`, eligo.grpcAddress]),
      ),
    },
  });
  second = programsApi(otherGateway);
}, 120_000);
afterAll(async () => {
  await otherGateway?.stop();
  await eligo?.stop();
});

/** Calls `request` until it answers 401, for at most `ms`; resolves with the last status and the time taken. */
async function pollUntil401(
  request: () => Promise<Reply>,
  ms: number,
): Promise<{ status: number; elapsed: number }> {
  const started = Date.now();
  let status = (await request()).status;
  while (status !== 401 && Date.now() - started < ms) {
    await new Promise((r) => setTimeout(r, 25));
    status = (await request()).status;
  }
  return { status, elapsed: Date.now() - started };
}

describe('revocation', () => {
  it('a revoked token is refused by every gateway within 1 s, even with a warm cache', async () => {
    const { account, token, program } = await api.tenant('Revoked');
    const theme = (gw: ProgramsApi) => () =>
      gw.v2('GET', `/program/${program.programId}/theme`, { token: token.token });
    // Warm both caches.
    expect((await theme(api)()).status).toBe(200);
    expect((await theme(second)()).status).toBe(200);

    await api.revokeToken(account.accountId, token.tokenId);
    const [here, there] = await Promise.all([
      pollUntil401(theme(api), 1000),
      pollUntil401(theme(second), 1000),
    ]);
    expect(here.status).toBe(401);
    expect(there.status).toBe(401);
    expect(there.elapsed).toBeLessThanOrEqual(1000);
  });

  it('other tokens of the account keep working', async () => {
    const { account, token, program } = await api.tenant('Two tokens');
    const spare = await api.createToken(account.accountId, 'spare');
    await api.revokeToken(account.accountId, token.tokenId);
    const res = await second.v2('GET', `/program/${program.programId}/theme`, { token: spare.token });
    expect(res.status).toBe(200);
  });
});

describe('OAuth 2.0 client credentials at /rest/oauth/token', () => {
  const tokenUrl = () => `${eligo.httpUrl}/rest/oauth`;
  const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const issue = (options: { params: Record<string, string>; authorization?: string; json?: boolean }) =>
    call(tokenUrl(), 'POST', '/token', {
      raw: options.json ? JSON.stringify(options.params) : form(options.params),
      contentType: options.json ? 'application/json' : 'application/x-www-form-urlencoded',
      headers: options.authorization ? { authorization: options.authorization } : {},
    });

  it('issues an access token with HTTP Basic; it works like a static token, on its own account only', async () => {
    const { token, program } = await api.tenant('OAuth');
    const other = await api.tenant('Someone else');
    const res = await issue({
      params: { grant_type: 'client_credentials' },
      authorization: basic(token.clientId, token.clientSecret),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
    });
    expect(res.body.expires_in).toBeGreaterThan(0);
    const bearer = res.body.access_token;
    expect((await api.v2('GET', '/info', { token: bearer })).status).toBe(200);
    expect((await api.v2('GET', `/program/${program.programId}/theme`, { token: bearer })).status).toBe(200);
    expect((await second.v2('GET', `/program/${program.programId}/theme`, { token: bearer })).status).toBe(
      200,
    );
    const foreign = await api.v2('GET', `/program/${other.program.programId}/theme`, { token: bearer });
    expect(foreign.status).toBe(404);
    // Not an operator: the admin API refuses it.
    expect((await api.admin('GET', `/programs/${program.programId}`, { token: bearer })).status).toBe(401);
  });

  it('issues an access token with client_id and client_secret in the form body, or as JSON', async () => {
    const { token } = await api.tenant('OAuth body');
    const params = {
      grant_type: 'client_credentials',
      client_id: token.clientId,
      client_secret: token.clientSecret,
    };
    const viaForm = await issue({ params });
    expect(viaForm.status).toBe(200);
    expect((await api.v2('GET', '/info', { token: viaForm.body.access_token })).status).toBe(200);
    const viaJson = await issue({ params, json: true });
    expect(viaJson.status).toBe(200);
    expect(viaJson.body.token_type).toBe('Bearer');
  });

  it('refuses a wrong secret with 401 invalid_client (with a Basic challenge when Basic was used)', async () => {
    const { token } = await api.tenant('OAuth wrong');
    const viaBasic = await issue({
      params: { grant_type: 'client_credentials' },
      authorization: basic(token.clientId, `${token.clientSecret.slice(0, -1)}x`),
    });
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
    const viaBody = await issue({
      params: {
        grant_type: 'client_credentials',
        client_id: token.clientId,
        client_secret: 'eligo_secret_nope',
      },
    });
    expect(viaBody.status).toBe(401);
    expect(viaBody.body.error).toBe('invalid_client');
    // No client authentication at all.
    const anonymous = await issue({ params: { grant_type: 'client_credentials' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('invalid_client');
  });

  it('answers 400 unsupported_grant_type and invalid_request in the RFC 6749 shape', async () => {
    const { token } = await api.tenant('OAuth grants');
    const authorization = basic(token.clientId, token.clientSecret);
    const password = await issue({
      params: { grant_type: 'password', username: 'a', password: 'b' },
      authorization,
    });
    expect(password.status).toBe(400);
    expect(password.body).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    const missing = await issue({ params: {}, authorization });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const twice = await call(tokenUrl(), 'POST', '/token', {
      raw: 'grant_type=client_credentials&grant_type=client_credentials',
      contentType: 'application/x-www-form-urlencoded',
      headers: { authorization },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe('invalid_request');
    const twoMethods = await issue({
      params: {
        grant_type: 'client_credentials',
        client_id: token.clientId,
        client_secret: token.clientSecret,
      },
      authorization,
    });
    expect(twoMethods.status).toBe(400);
    expect(twoMethods.body.error).toBe('invalid_request');
    const tooLarge = await issue({
      params: { grant_type: 'client_credentials', pad: 'x'.repeat(2 * 1024 * 1024) },
      authorization,
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toBe('invalid_request');
  });

  it('ignores parameters it does not know, as RFC 6749 requires', async () => {
    const { token } = await api.tenant('OAuth extra');
    const res = await issue({
      params: { grant_type: 'client_credentials', scope: 'anything', audience: 'x' },
      authorization: basic(token.clientId, token.clientSecret),
    });
    expect(res.status).toBe(200);
  });

  it("refuses a revoked token's access tokens (even cached) and its client credentials", async () => {
    const { account, token, program } = await api.tenant('OAuth revoked');
    const authorization = basic(token.clientId, token.clientSecret);
    const issued = await issue({ params: { grant_type: 'client_credentials' }, authorization });
    const bearer = issued.body.access_token;
    const theme = (gw: ProgramsApi) => () =>
      gw.v2('GET', `/program/${program.programId}/theme`, { token: bearer });
    expect((await theme(api)()).status).toBe(200);
    expect((await theme(second)()).status).toBe(200);
    await api.revokeToken(account.accountId, token.tokenId);
    expect((await pollUntil401(theme(api), 1000)).status).toBe(401);
    expect((await pollUntil401(theme(second), 1000)).status).toBe(401);
    const again = await issue({ params: { grant_type: 'client_credentials' }, authorization });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('invalid_client');
  });
});
