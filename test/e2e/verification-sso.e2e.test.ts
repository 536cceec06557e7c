import type { ServiceUnderTest } from '@eligo/local-infra';
import { freePort } from '../support/eligo-process';
import { startAllInProcess } from '../support/in-process';
import { providerIssuer, startOidcProvider, type OidcProvider } from '../support/oidc-provider';
import { signInAtProvider } from '../support/oidc-sign-in';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { verificationApi, type VerificationApi } from '../support/verification-api';

// Issue 22, single sign-on in the verification flow end to end (`--target all` on the suite's Postgres and
// Kafka, a real OpenID provider run by the test): a live student whose school has OpenID settings goes to
// step sso; GET step/sso sends the browser to the provider with a cookie binding the sign-on to it; the
// provider's return to /sso/callback finishes it: success (verificationMethod SSO) when the school's rule
// holds, docUpload when not; a callback in a browser that did not start the sign-on finishes nothing. The
// ID token's own checks (forged, expired, wrong nonce) are the organizations service's tests.
let eligo: ServiceUnderTest;
let provider: OidcProvider;
let api: ProgramsApi;
let flow: VerificationApi;
let callback: string;
let programId: string;
let token: string;
let school: { id: number; name: string };

beforeAll(async () => {
  const { port, issuer } = await providerIssuer();
  // The callback is registered with the provider before Eligo listens: a port chosen up front. The provider
  // is on 127.0.0.1 over plain http, allowed only inside ELIGO_WEBHOOK_ALLOW_CIDRS.
  const httpPort = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${httpPort}`;
  callback = `${publicBaseUrl}/sso/callback`;
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    ELIGO_HTTP_PORT: String(httpPort),
    ELIGO_PUBLIC_BASE_URL: publicBaseUrl,
  });
  api = programsApi(eligo);
  flow = verificationApi(api);
  provider = await startOidcProvider({
    port,
    clients: [{ client_id: 'eligo', client_secret: 'a-secret-of-the-sso-e2e', redirect_uris: [callback] }],
    accounts: {
      student: {
        email: 'ann@leidenuniv.nl',
        email_verified: true,
        eduPersonAffiliation: ['student', 'member'],
      },
      staff: { email: 'bob@leidenuniv.nl', email_verified: true, eduPersonAffiliation: ['staff'] },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], affiliation: ['eduPersonAffiliation'] },
  });
  const account = await api.createAccount('Sso Shop');
  token = (await api.createToken(account.accountId)).token as string;
  programId = (
    await api.createProgram(account.accountId, {
      mode: 'live',
      offerType: 'staticCode',
      rewardCode: 'SSO10',
    })
  ).programId;
  const orgs = organizationsApi(api);
  const imported = await orgs.importCsv([
    {
      externalId: 'e2e-sso-leiden',
      name: 'Leiden University',
      type: 'UNIVERSITY',
      country: 'US',
      domains: ['leidenuniv.nl'],
    },
  ]);
  expect([imported.status, imported.body.created]).toEqual([200, 1]);
  school = { id: await orgs.idOf(programId, 'Leiden University'), name: 'Leiden University' };
  const sso = await api.admin('PUT', `/organizations/${school.id}/sso`, {
    body: {
      issuer,
      clientId: 'eligo',
      clientSecret: 'a-secret-of-the-sso-e2e',
      scopes: ['email', 'affiliation'],
      rule: {
        claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }],
        emailDomainInOrganization: true,
      },
    },
  });
  expect(sso.status).toBe(200);
}, 180_000);
afterAll(async () => {
  await provider?.stop();
  await eligo?.stop();
});

/** A live student of the school, at step sso. */
async function atSso(): Promise<string> {
  const { verificationId } = await flow.started(programId);
  const reply = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
    firstName: 'Ann',
    lastName: 'Lee',
    birthDate: '2001-02-03',
    email: 'ann@gmail.com',
    organization: school,
  });
  expect([reply.status, reply.body.currentStep]).toEqual([200, 'sso']);
  return verificationId;
}

/** GET step/sso as a browser: the provider's URL and the cookie the gateway set. */
async function startSignOn(verificationId: string): Promise<{ location: string; cookie: string }> {
  const res = await fetch(`${eligo.httpUrl}/rest/v2/verification/${verificationId}/step/sso`, {
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const setCookie = res.headers.getSetCookie();
  expect(setCookie).toHaveLength(1);
  expect(setCookie[0]).toMatch(
    /^eligo_sso=[\w-]+; Path=\/sso\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
  );
  return { location: res.headers.get('location')!, cookie: setCookie[0]!.split(';')[0]! };
}

/** The provider's return, followed to Eligo's callback with (or without) the browser's cookie. */
function returnTo(callbackUrl: string, cookie?: string): Promise<Response> {
  const url = new URL(callbackUrl);
  return fetch(`${eligo.httpUrl}${url.pathname}${url.search}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  });
}

it('a student signs in at the school: success, verificationMethod SSO, back on the hosted page', async () => {
  const verificationId = await atSso();
  const { location, cookie } = await startSignOn(verificationId);
  expect(location.startsWith(`${provider.issuer}/`)).toBe(true);
  const url = new URL(location);
  expect([url.searchParams.get('redirect_uri'), url.searchParams.get('code_challenge_method')]).toEqual([
    callback,
    'S256',
  ]);
  const returned = await signInAtProvider(location, 'student', callback);
  const res = await returnTo(returned, cookie);
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe(
    `${eligo.httpUrl}/verify/${programId}?verificationId=${verificationId}`,
  );
  expect(res.headers.get('cache-control')).toBe('no-store');
  const done = await flow.get(verificationId);
  expect([done.body.currentStep, done.body.rewardCode]).toEqual(['success', 'SSO10']);
  expect((await flow.details(verificationId, token)).body.verificationMethod).toBe('SSO');
  // The state is used once.
  expect((await returnTo(returned, cookie)).status).toBe(400);
});

it("a person the school's rule does not accept: docUpload", async () => {
  const verificationId = await atSso();
  const { location, cookie } = await startSignOn(verificationId);
  const res = await returnTo(await signInAtProvider(location, 'staff', callback), cookie);
  expect(res.status).toBe(303);
  const after = await flow.get(verificationId);
  expect(after.body.currentStep).toBe('docUpload');
});

it('a sign-on link finished in another browser (no cookie, or another one) finishes nothing', async () => {
  const verificationId = await atSso();
  const mine = await startSignOn(verificationId);
  const returned = await signInAtProvider(mine.location, 'student', callback);
  expect((await returnTo(returned)).status).toBe(400);
  const other = await startSignOn(await atSso());
  expect((await returnTo(returned, other.cookie)).status).toBe(400);
  expect((await flow.get(verificationId)).body.currentStep).toBe('sso');
  // The browser that started it still can.
  expect((await returnTo(returned, mine.cookie)).status).toBe(303);
  expect((await flow.get(verificationId)).body.currentStep).toBe('success');
});

it('DELETE step/sso still goes to documents, and step/sso is then 404', async () => {
  const verificationId = await atSso();
  const cancelled = await api.v2('DELETE', `/verification/${verificationId}/step/sso`);
  expect([cancelled.status, cancelled.body.currentStep]).toEqual([200, 'docUpload']);
  const gone = await fetch(`${eligo.httpUrl}/rest/v2/verification/${verificationId}/step/sso`, {
    redirect: 'manual',
  });
  expect(gone.status).toBe(404);
});
