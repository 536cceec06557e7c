import type { Page } from 'playwright-core';
import { DESKTOP, newPage, useBrowser } from '../support/browser';
import { freePort, startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { providerIssuer, startOidcProvider, type OidcProvider } from '../support/oidc-provider';
import { programsApi, type ProgramsApi } from '../support/programs-api';

// Staff sign-in through the operator's OpenID provider: a real provider (oidc-provider, its development
// sign-in form) in its own process, Eligo configured with its issuer, Debian's Chromium going through the
// whole redirect flow. The member is the staff member of the ID token's verified email.
const adminToken = `eligo_admin_${'oidcsso'.repeat(4)}`;
const browser = useBrowser();
let suite: EligoSuite;
let provider: OidcProvider;
let api: ProgramsApi;
let reviewerId: string;

beforeAll(async () => {
  const { port, issuer } = await providerIssuer();
  // The callback is built from the public base URL: the address the browser uses (and the provider lists).
  const httpPort = await freePort();
  suite = await startEligoSuite(adminToken, {
    ELIGO_HTTP_PORT: String(httpPort),
    ELIGO_PUBLIC_BASE_URL: `http://127.0.0.1:${httpPort}`,
    ELIGO_GATEWAY_STAFF_OIDC_ISSUER: issuer,
    ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'eligo-console',
    ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET: 'a-client-secret-of-the-console',
    ELIGO_GATEWAY_STAFF_OIDC_LABEL: 'Example Corp',
    // Every test signs in from 127.0.0.1: more than the per-address limit of a minute.
    ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE: '0',
  });
  provider = await startOidcProvider({
    port,
    clients: [
      {
        client_id: 'eligo-console',
        client_secret: 'a-client-secret-of-the-console',
        redirect_uris: [`${suite.eligo.httpUrl}/console/session/oidc/callback`],
      },
    ],
    accounts: {
      rita: { email: 'Rita.Reviewer@example.com', email_verified: true },
      una: { email: 'una@example.com', email_verified: false },
      stranger: { email: 'stranger@example.com', email_verified: true },
      gone: { email: 'gone@example.com', email_verified: true },
    },
  });
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken });
  const created = async (email: string, role: string) => {
    const res = await api.admin('POST', '/staff', { body: { email, name: `The ${role}`, role } });
    expect(res.status).toBe(201);
    return (res.body as { staffId: string }).staffId;
  };
  reviewerId = await created('rita.reviewer@example.com', 'reviewer');
  await created('una@example.com', 'reviewer');
  const goneId = await created('gone@example.com', 'admin');
  expect((await api.admin('PATCH', `/staff/${goneId}`, { body: { disabled: true } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await provider?.stop();
  await suite?.stop();
}, 60_000);

/** Signs in at the provider's development form as `login`, consenting if asked; ends back on Eligo. */
async function signInAtProvider(page: Page, login: string, start?: string): Promise<string> {
  // Where the callback sends the browser (the console takes ?signIn=failed out of its address once read).
  let sentTo = '';
  page.on('response', (r) => {
    if (r.url().includes('/console/session/oidc/callback')) sentTo = r.headers().location ?? '';
  });
  await page.goto(start ?? `${suite.eligo.httpUrl}/console/session/oidc`);
  await page
    .locator('input[name=login]')
    .waitFor({ timeout: 10_000 })
    .catch(async () => {
      throw new Error(`no sign-in form at ${page.url()}: ${(await page.content()).slice(0, 500)}`);
    });
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  const eligo = (url: URL) => url.origin === suite.eligo.httpUrl;
  for (let form = 0; form < 3 && !eligo(new URL(page.url())); form += 1) {
    // The sign-in form, then the consent form ("Continue"), each posted back to the provider.
    const before = page.url();
    await page.locator('button[type=submit]').first().click();
    await page.waitForURL((url) => url.href !== before, { timeout: 15_000 });
    await page.waitForLoadState();
  }
  if (!eligo(new URL(page.url()))) throw new Error(`still at the provider: ${page.url()}`);
  return sentTo;
}

/** The console session the page's cookies hold: the member, or the status. */
const sessionOf = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/console/session');
    return res.ok ? ((await res.json()) as { staffId: string; role: string }) : res.status;
  });

it('a reviewer signs in with the provider and has a console session as that member', async () => {
  const page = await newPage(browser(), DESKTOP);
  const sentTo = await signInAtProvider(page, 'rita');
  const refusals = () =>
    suite.eligo
      .output()
      .split('\n')
      .filter((line) => line.includes('staff OIDC'));
  expect([sentTo, refusals()]).toEqual(['/console', []]);
  await expect(sessionOf(page)).resolves.toMatchObject({ staffId: reviewerId, role: 'reviewer' });
  // The session works on the admin API as a password session does, its role included.
  const reviews = await page.evaluate(async () => (await fetch('/rest/admin/v1/reviews')).status);
  expect(reviews).toBe(200);
  const staffList = await page.evaluate(async () => (await fetch('/rest/admin/v1/staff')).status);
  expect(staffList).toBe(403);
  // The audit log has the sign-in, by that member.
  const audit = await api.admin('GET', `/audit?actor=${reviewerId}`);
  expect(JSON.stringify(audit.body)).toContain('createConsoleSession');
  await page.context().close();
}, 60_000);

it.each([
  ['an email no staff member has', 'stranger'],
  ['an email the provider does not call verified', 'una'],
  ['a disabled staff member', 'gone'],
])(
  'refuses %s: back on the console, told it failed, without a session',
  async (_name, login) => {
    const page = await newPage(browser(), DESKTOP);
    await expect(signInAtProvider(page, login)).resolves.toBe('/console?signIn=failed');
    await expect(sessionOf(page)).resolves.toBe(401);
    // The console says so, and offers both ways in again. Its script renders them after the page loads
    // (isVisible() does not wait: a CI run read the page before the script had drawn it).
    const shown = { state: 'visible', timeout: 15_000 } as const;
    await page.getByText('Signing in with your organization did not work').waitFor(shown);
    await page.getByRole('link', { name: 'Sign in with Example Corp' }).waitFor(shown);
    await page.context().close();
  },
  60_000,
);

it('refuses a callback this browser did not start', async () => {
  // The provider's answer to one browser (its code used there), replayed in another that started nothing.
  const first = await newPage(browser(), DESKTOP);
  const callbacks: string[] = [];
  first.on('request', (r) => r.url().includes('/oidc/callback') && callbacks.push(r.url()));
  await signInAtProvider(first, 'rita');
  expect(callbacks).toHaveLength(1);
  await first.context().close();
  const other = await newPage(browser(), DESKTOP);
  const replayed = await other.request.get(callbacks[0]!, { maxRedirects: 0 });
  expect([replayed.status(), replayed.headers().location]).toEqual([303, '/console?signIn=failed']);
  await other.goto(`${suite.eligo.httpUrl}/console`);
  await expect(sessionOf(other)).resolves.toBe(401);
  await other.context().close();
}, 60_000);

it('refuses an answer whose state is not the one this browser sent', async () => {
  const page = await newPage(browser(), DESKTOP);
  // The browser's sign-in starts (its transaction cookie set); the state it carries to the provider changes.
  const start = await page.request.get(`${suite.eligo.httpUrl}/console/session/oidc`, { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  const authorization = new URL(start.headers().location!);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
  authorization.searchParams.set('state', 'a-state-of-someone-else');
  await expect(signInAtProvider(page, 'rita', authorization.href)).resolves.toBe('/console?signIn=failed');
  await expect(sessionOf(page)).resolves.toBe(401);
  await page.context().close();
}, 60_000);
