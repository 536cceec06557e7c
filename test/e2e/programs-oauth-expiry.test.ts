import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { call, programsApi, type ProgramsApi } from '../support/programs-api';

// OAuth access tokens expire: a one-second lifetime, and a gateway cache far longer than that.
let eligo: ServiceUnderTest;
let api: ProgramsApi;

beforeAll(async () => {
  eligo = await startAllInProcess({
    ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS: '1',
    ELIGO_GATEWAY_AUTH_CACHE_MS: '60000',
  });
  api = programsApi(eligo);
}, 120_000);
afterAll(async () => eligo?.stop());

it('refuses an access token once it has expired, even though the gateway had cached it', async () => {
  const { token, program } = await api.tenant('Short-lived');
  const issued = await call(`${eligo.httpUrl}/rest/oauth`, 'POST', '/token', {
    raw: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: token.clientId,
      client_secret: token.clientSecret,
    }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
  expect(issued.status).toBe(200);
  expect(issued.body.expires_in).toBe(1);
  const issuedAt = Date.now();
  const theme = () =>
    api.v2('GET', `/program/${program.programId}/theme`, { token: issued.body.access_token });
  expect((await theme()).status).toBe(200); // cached now, for at most the token's lifetime

  // The token lives at least 1 s and less than 2 s (whole-second JWT times): poll until it is refused.
  let status = 200;
  while (status === 200 && Date.now() - issuedAt < 4000) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await theme()).status;
  }
  expect(status).toBe(401);
  expect(Date.now() - issuedAt).toBeGreaterThanOrEqual(900);
  // The static token it was issued from is not affected.
  expect((await api.v2('GET', `/program/${program.programId}/theme`, { token: token.token })).status).toBe(
    200,
  );
});
