import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { waitFor } from '@eligo/local-infra';
import {
  DESKTOP,
  PHONE,
  expectAccessible,
  newPage,
  pageProblems,
  screenshot,
  useBrowser,
} from '../support/browser';
import { documentsApi } from '../support/documents-api';
import { startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';

// The staff console (/console) in Debian's Chromium against `eligo start --target all`: a reviewer approves a
// person's document while the person's hosted page waits (two pages of one browser), a reviewer is refused
// what needs admin, a support member accepts an add-school request, an admin goes through every page and
// pages through a list; with no console error but the refusals the test provokes (a CSP violation is one), no
// request leaving 127.0.0.1, and no serious accessibility issue.
const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
const browser = useBrowser();
let suite: EligoSuite;
let api: ProgramsApi;
let accountId: string;
let programId: string;
const staff: Record<'reviewer' | 'support' | 'admin', { email: string; password: string }> = {} as never;
/** The verification the reviewer approves (test 1), which the admin looks up later. */
let approvedVerification = '';

beforeAll(async () => {
  suite = await startEligoSuite(adminToken, {
    // This file signs in more than 10 times a minute from one address; the limit has tests of its own.
    ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE: '100',
  });
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken });
  const account = await api.createAccount('Console Co');
  accountId = account.accountId;
  programId = (
    await api.createProgram(accountId, {
      name: 'Console Spring',
      offerType: 'staticCode',
      rewardCode: 'DESK-10',
    })
  ).programId;
  const imported = await organizationsApi(api).importCsv([
    {
      externalId: 'console-u1',
      name: 'Console State University',
      type: 'UNIVERSITY',
      country: 'US',
      domains: [],
    },
  ]);
  expect(imported.status).toBe(200);
  for (const role of ['reviewer', 'support', 'admin'] as const) {
    const email = `${role}.${randomBytes(3).toString('hex')}@example.com`;
    const res = await api.admin('POST', '/staff', { body: { email, name: `Casey ${role}`, role } });
    expect(`${res.status} ${JSON.stringify(res.body)}`).toMatch(/^201 /);
    staff[role] = { email, password: res.body.password };
  }
}, 120_000);
afterAll(() => suite?.stop(), 60_000);

const at = (path: string) => `${suite.eligo.httpUrl}${path}`;

/**
 * Fails on any problem of the page but the failed loads the test provokes on purpose (a refusal of the role,
 * the 401 of the first session check before signing in), each named by its status and URL path.
 */

/**
 * The page as a laptop and as a phone shows it (test/artifacts/<name>-desktop.png and -phone.png): the
 * viewport narrows for the second, then comes back.
 */
async function pageShots(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE.viewport!);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP.viewport!);
}

function expectOnlyProblems(page: Page, allowed: { status: number; path: string }[]): void {
  const p = pageProblems(page);
  const expected = (line: string) =>
    allowed.some(
      (a) => line.includes(`status of ${a.status}`) && line.includes(`${suite.eligo.httpUrl}${a.path}`),
    );
  const lines = [
    ...p.consoleErrors.filter((e) => !expected(e)).map((e) => `console error: ${e}`),
    ...p.pageErrors.map((e) => `page error: ${e}`),
    ...p.failedRequests.map((e) => `request failed: ${e}`),
    ...p.blockedRequests.map((e) => `request to a host other than 127.0.0.1 (blocked): ${e}`),
  ];
  expect(lines).toEqual([]);
}
const NO_SESSION_YET = { status: 401, path: '/console/session' };

async function heading(page: Page, text: string): Promise<void> {
  try {
    await page.locator('h1', { hasText: text }).waitFor({ timeout: 15_000 });
  } catch {
    const shown = await page.locator('h1').allTextContents();
    const alerts = await page.locator('[role=alert]').allTextContents();
    throw new Error(
      `expected the page "${text}", showing ${JSON.stringify(shown)}; alerts ${JSON.stringify(alerts)}`,
    );
  }
}

/** Opens the console in a new page and signs in as `role`; the review queue is the first page. */
async function signedIn(
  role: keyof typeof staff,
  options: { axe?: boolean; shot?: string } = {},
): Promise<Page> {
  const page = await newPage(browser(), DESKTOP, { axe: options.axe });
  await page.goto(at('/console'));
  await heading(page, 'Eligo console');
  if (options.axe) await expectAccessible(page);
  await page.getByLabel('Email').fill(staff[role].email);
  await page.getByLabel('Password').fill(staff[role].password);
  if (options.shot) await pageShots(page, options.shot);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, 'Review queue');
  // The queue's first load done (a navigation right away would abort it, a failed request of the page).
  await page.locator('table.list, .empty, .problem').first().waitFor();
  return page;
}

async function filterQueue(page: Page, program: string): Promise<void> {
  await page.getByLabel('Program id').fill(program);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(`**/console/reviews?programId=${program}`);
}

const sections = (page: Page) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
/** The sections a support member sees; an admin sees these and the audit log and staff. */
const SUPPORT_SECTIONS = ['Review queue', 'Add-school requests', 'Verifications', 'Programs', 'Accounts'];

/** A PNG of a student card (a light card with a dark band), big enough to look at in the review. */
function studentCardPng(width = 480, height = 300): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const band = y < height * 0.25;
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      rows.set(
        band ? [30, 64, 175] : x < width * 0.3 && y > height * 0.35 ? [156, 163, 175] : [243, 244, 246],
        o,
      );
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

it("a person with firstName REJECTED uploads a document, a reviewer approves it in the console, and the person's page turns to success by itself", async () => {
  // The person, on a phone: firstName REJECTED sends a test-mode verification to docUpload (UPLOAD would
  // too: services/verification/src/domain/outcome.ts); a file whose name has neither ACCEPTED nor REJECTED
  // then waits for staff like a live one (services/documents/src/domain/test-mode.ts).
  const person = await newPage(browser(), PHONE);
  await person.goto(at(`/verify/${programId}`));
  await person.locator('h1', { hasText: 'Tell us about yourself' }).waitFor({ timeout: 15_000 });
  await person.locator('#f-firstName').fill('REJECTED');
  await person.locator('#f-lastName').fill('Doe');
  await person.locator('#f-birthDate').fill('2000-01-31');
  await person.locator('#f-email').fill('rejected.doe@example.com');
  await person.locator('#f-organization').fill('Console St');
  await person.getByRole('option', { name: 'Console State University' }).click();
  await person.getByRole('button', { name: 'Verify my eligibility' }).click();
  await person.locator('h1', { hasText: 'Upload a document' }).waitFor({ timeout: 15_000 });
  await person
    .locator('#f-files')
    .setInputFiles([{ name: 'student-card.png', mimeType: 'image/png', buffer: studentCardPng() }]);
  await person.getByRole('button', { name: 'Upload' }).click();
  await person.locator('h1', { hasText: 'We are reviewing your document' }).waitFor({ timeout: 15_000 });

  // The reviewer, on a laptop in the same browser: signs in, finds the review in the program's queue.
  const desk = await signedIn('reviewer', { shot: 'console-sign-in' });
  await filterQueue(desk, programId);
  const open = desk.getByRole('link', { name: /^Open review/ });
  await waitFor('the review in the queue', async () => {
    if ((await open.count()) > 0) return true;
    await desk.getByRole('button', { name: 'Refresh' }).click();
    await desk.waitForTimeout(300);
    return undefined;
  });
  await pageShots(desk, 'console-queue');
  // j focuses the first review, o opens it.
  await desk.keyboard.press('j');
  await desk.keyboard.press('o');
  await heading(desk, 'Document review');

  // Opening claimed it; the file shows inline, loaded from Eligo under the console's CSP; the person's
  // data beside it.
  await expect(desk.locator('#claim-state').textContent()).resolves.toMatch(/^Claimed by you/);
  const image = desk.getByRole('img', { name: 'The uploaded file student-card.png' });
  await image.waitFor();
  // Its natural width is known once the bytes came and decoded (0 while loading or when refused).
  const width = () => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
  await waitFor('the image to load', async () => ((await width()) === 480 ? true : undefined));
  await expect(desk.locator('#submitted-name').textContent()).resolves.toBe('REJECTED Doe');
  approvedVerification = (await desk.locator('#submitted a').textContent()) ?? '';
  expect(approvedVerification).toMatch(/^[0-9a-f]{24}$/);
  await pageShots(desk, 'console-review');

  // Another member opening the same review sees it claimed by someone else, and no decision to make.
  const second = await signedIn('support');
  await second.goto(desk.url());
  await heading(second, 'Document review');
  await expect(second.locator('#claim-state').textContent()).resolves.toMatch(/^Claimed by someone else/);
  await expect(second.getByRole('button', { name: /^Approve/ }).count()).resolves.toBe(0);
  await pageShots(second, 'console-review-claimed');
  expectOnlyProblems(second, [NO_SESSION_YET, { status: 409, path: '/rest/admin/v1/reviews/' }]);
  await second.context().close();

  // "?" shows the shortcuts; "a" approves; the console moves on to the (now empty) queue.
  await desk.keyboard.press('?');
  await desk.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await pageShots(desk, 'console-shortcuts');
  await desk.keyboard.press('Escape');
  await desk.getByRole('dialog').waitFor({ state: 'hidden' });
  await desk.keyboard.press('a');
  await heading(desk, 'Review queue');
  await expect(desk.locator('.flash').textContent()).resolves.toBe('Review approved.');

  // The person's page, polling, turns to success without a reload.
  await person.locator('#reward-code').waitFor({ timeout: 20_000 });
  await expect(person.locator('#reward-code').textContent()).resolves.toBe('DESK-10');
  const decided = await api.admin('GET', `/reviews?status=approved&programId=${programId}`);
  expect(decided.body.reviews[0].decidedBy).toMatch(/^staff:[0-9a-f]{24}$/);
  expectOnlyProblems(desk, [NO_SESSION_YET]);
  expectOnlyProblems(person, []);
  await desk.context().close();
  await person.context().close();
}, 120_000);

it("the console refuses a reviewer's action that needs admin", async () => {
  const page = await signedIn('reviewer');
  // What the role may not do is not offered...
  await expect(sections(page)).resolves.toEqual(['Review queue', 'Verifications']);
  // ... and asked for directly, the admin API's refusal is shown, not a crash.
  await page.goto(at('/console/programs'));
  await heading(page, 'Programs');
  const refusal = page.getByRole('alert');
  await expect(refusal.textContent()).resolves.toContain('Not allowed for your role');
  await expect(refusal.textContent()).resolves.toContain('Your role (reviewer) may not list the programs.');
  await pageShots(page, 'console-refused');
  await page.goto(at('/console/staff'));
  await heading(page, 'Staff');
  await expect(page.getByRole('alert').textContent()).resolves.toContain(
    'Your role (reviewer) may not list the staff.',
  );
  // A program's page offers the reviewer nothing to do (no settings, no secret rotation).
  await page.goto(at(`/console/programs/${programId}`));
  await expect(page.getByRole('alert').textContent()).resolves.toContain('may not see programs');
  await expect(page.getByRole('button', { name: /Rotate/ }).count()).resolves.toBe(0);
  expectOnlyProblems(page, [
    NO_SESSION_YET,
    { status: 403, path: '/rest/admin/v1/programs' },
    { status: 403, path: '/rest/admin/v1/staff' },
  ]);
  await page.context().close();
}, 60_000);

/** A test-mode student (firstName UPLOAD) who uploaded a file through the API: a review waits for staff. */
async function pendingReview(): Promise<string> {
  const { programId: program } = await api.createProgram(accountId, {
    offerType: 'staticCode',
    rewardCode: 'AXE-1',
  });
  const organization = await importUniversity(api, program, 'Axe State University');
  const flow = verificationApi(api);
  const docs = documentsApi(api, (url) => url);
  const { verificationId } = await flow.started(program);
  const atUpload = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
    ...janeDoe,
    firstName: 'UPLOAD',
    organization,
  });
  const png = { name: 'card.png', type: 'image/png', bytes: studentCardPng() };
  const created = await docs.manifest(atUpload.body.submissionUrl, [png]);
  expect((await docs.put(created.body.documents[0].uploadUrl, png)).status).toBe(200);
  expect((await docs.complete(created.body.submissionUrl)).body.currentStep).toBe('pending');
  return waitFor('the pending review', async () => {
    const queue = await api.admin('GET', `/reviews?status=pending&programId=${program}`);
    return (queue.body.reviews as { reviewId: string }[] | undefined)?.[0]?.reviewId;
  });
}

it('a support member accepts an add-school request, and the console passes axe', async () => {
  const asked = await api.v2('POST', '/organization/addSchool', {
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      schoolName: 'Analytical Engine Academy',
      schoolDomain: 'analytical.edu',
      schoolCountry: 'US',
      programId,
    },
  });
  expect(asked.status).toBe(204);

  const reviewId = await pendingReview();

  // axe on the sign-in (in signedIn), the queue (with a review), the shortcuts, a review, the add-school
  // requests.
  const page = await signedIn('support', { axe: true });
  await expect(sections(page)).resolves.toEqual(SUPPORT_SECTIONS);
  await expectAccessible(page);
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await page.goto(at(`/console/reviews/${reviewId}`));
  await heading(page, 'Document review');
  await page.locator('#submitted').waitFor();
  await page.getByRole('button', { name: /^Reject/ }).click();
  await page.getByRole('group', { name: /Rejection reasons/ }).waitFor();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Add-school requests' }).click();
  await heading(page, 'Add-school requests');
  const card = page.getByRole('article', { name: 'Analytical Engine Academy' });
  await card.getByRole('button', { name: 'Accept…' }).click();
  await card.getByLabel('Organization type').selectOption('UNIVERSITY');
  await pageShots(page, 'console-add-school');
  await expectAccessible(page);
  await card.getByRole('button', { name: 'Accept and add to the catalog' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'added to the catalog' }).textContent(),
  ).resolves.toMatch(/^Analytical Engine Academy was added to the catalog \(organization \d+\)\.$/);
  const accepted = await api.admin('GET', `/addSchoolRequests?programId=${programId}&status=ACCEPTED`);
  expect(accepted.body.requests.map((r: { schoolName: string }) => r.schoolName)).toEqual([
    'Analytical Engine Academy',
  ]);
  await page.context().close();
}, 60_000);

it('an admin goes through every page: a verification found by email, a program changed, its secret rotated, the audit log and staff', async () => {
  // A rewardPool program without codes yet (an empty pool is low) and a webhook (a secret to rotate).
  const pool = await api.createProgram(accountId, {
    name: 'Console Pool',
    offerType: 'rewardPool',
    webhook: { callbackUri: 'https://hooks.example.com/eligo' },
  });

  const page = await signedIn('admin');
  await expect(sections(page)).resolves.toEqual([...SUPPORT_SECTIONS, 'Audit log', 'Staff']);

  // Verifications: by the person's email (not in the page's address), then the one found.
  await page.getByRole('link', { name: 'Verifications' }).click();
  await heading(page, 'Verifications');
  await page.getByLabel('Find by').selectOption('email');
  await page.getByLabel("Person's email").fill('Rejected.Doe@example.com');
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByRole('link', { name: approvedVerification }).click();
  await heading(page, `Verification ${approvedVerification}`);
  expect(page.url()).not.toContain('example.com');
  await expect(page.locator('#current-step').textContent()).resolves.toBe('success');
  await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor();
  await pageShots(page, 'console-verification');

  // Programs: the list, then the pool program: low codes, a new name, the secret shown once.
  await page.getByRole('link', { name: 'Programs' }).click();
  await heading(page, 'Programs');
  await page.getByLabel('Name').fill('Console');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('link', { name: 'Console Pool' }).waitFor();
  await pageShots(page, 'console-programs');
  await page.getByRole('link', { name: 'Console Pool' }).click();
  await heading(page, `Program ${pool.programId}`);
  await expect(page.locator('#pool-level').textContent()).resolves.toBe('0 unused of 0 codes (0 claimed).');
  await expect(page.getByRole('alert').filter({ hasText: 'Low:' }).count()).resolves.toBe(1);
  await page.getByLabel('Name', { exact: true }).fill('Console Pool Renamed');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  const stored = await api.admin('GET', `/programs/${pool.programId}`);
  expect(stored.body.name).toBe('Console Pool Renamed');
  await page.getByRole('button', { name: 'Rotate the secret…' }).click();
  await page.getByRole('button', { name: 'Rotate now' }).click();
  const secret = await page.getByLabel('New signing secret').inputValue();
  expect(secret.length).toBeGreaterThan(20);
  await pageShots(page, 'console-program');

  await page.getByRole('link', { name: 'Accounts' }).click();
  await heading(page, 'Accounts');
  await page.getByRole('cell', { name: 'Console Co', exact: true }).waitFor();
  await pageShots(page, 'console-accounts');

  await page.getByRole('link', { name: 'Audit log' }).click();
  await heading(page, 'Audit log');
  await page.getByRole('cell', { name: 'adminRotateWebhookSecret' }).waitFor();
  const exportHref = await page.getByRole('link', { name: 'Export as NDJSON' }).getAttribute('href');
  expect(exportHref).toBe('/rest/admin/v1/audit/export');
  await pageShots(page, 'console-audit');

  await page.getByRole('link', { name: 'Staff' }).click();
  await heading(page, 'Staff');
  await page.getByRole('cell', { name: staff.reviewer.email }).waitFor();
  await pageShots(page, 'console-staff');

  // Sign-out ends the session: the sign-in again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await heading(page, 'Eligo console');
  await expect(page.getByRole('status').textContent()).resolves.toBe('You signed out.');
  expectOnlyProblems(page, [NO_SESSION_YET]);
  await page.context().close();
}, 90_000);

it('an admin pages through a list: the next page, then back to the first', async () => {
  // 51 accounts of one name: a page of 50 (the console's limit), then the last one (the oldest).
  const name = `Paged ${randomBytes(3).toString('hex')}`;
  for (let i = 0; i <= 50; i += 1) await api.createAccount(`${name} ${String(i).padStart(2, '0')}`);
  const page = await signedIn('admin');
  await page.getByRole('link', { name: 'Accounts' }).click();
  await heading(page, 'Accounts');
  await page.getByLabel('Name').fill(name);
  // The unfiltered first page (newest first) shows these accounts too: wait for the filtered answer.
  const filtered = page.waitForResponse(
    (r) => r.url().includes('/rest/admin/v1/accounts?') && r.url().includes('name='),
  );
  await page.getByRole('button', { name: 'Find' }).click();
  await filtered;
  const rows = page.locator('table.list tbody tr');
  const first = page.getByRole('button', { name: 'First page' });
  const next = page.getByRole('button', { name: 'Next page' });

  await page.getByRole('cell', { name: `${name} 50`, exact: true }).waitFor();
  await expect(rows.count()).resolves.toBe(50);
  await expect(first.isDisabled()).resolves.toBe(true);
  await next.click();
  await page.getByRole('cell', { name: `${name} 00`, exact: true }).waitFor();
  await expect(rows.count()).resolves.toBe(1);
  await expect(next.isDisabled()).resolves.toBe(true);
  await first.click();
  await page.getByRole('cell', { name: `${name} 50`, exact: true }).waitFor();
  await expect(rows.count()).resolves.toBe(50);
  expectOnlyProblems(page, [NO_SESSION_YET]);
  await page.context().close();
}, 60_000);

it("an admin issues an account's access token, sees its secrets once, and revokes it; support sees no tokens", async () => {
  const page = await signedIn('admin');
  await page.goto(at(`/console/accounts/${accountId}`));
  await heading(page, 'Console Co');
  await page.getByLabel("New token's name").fill('Browser reports');
  await page.getByLabel('Reports (REPORTER)').check();
  await page.getByRole('button', { name: 'Issue the token' }).click();
  const token = await page.getByLabel('Bearer token').inputValue();
  expect(token).toMatch(/\S{20,}/);
  await expect(page.getByLabel('OAuth client secret').inputValue()).resolves.toMatch(/\S{20,}/);
  // The token works at once, as a bearer of REST v2.
  const info = (bearer: string) =>
    fetch(at('/rest/v2/info'), { headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.status);
  await expect(info(token)).resolves.toBe(200);
  const row = page.getByRole('row', { name: /Browser reports/ });
  // The list reloads with it: listed by its name and roles, never a credential.
  await row.getByRole('cell', { name: 'REPORTER', exact: true }).waitFor();
  await expect(page.locator('table.list').textContent()).resolves.not.toContain(token);
  await pageShots(page, 'console-account');
  await row.getByRole('button', { name: /Revoke/ }).click();
  await row.getByRole('button', { name: 'Revoke now' }).click();
  await page.getByRole('row', { name: /Browser reports.*Revoked/ }).waitFor();
  // Every gateway refuses a revoked token within a second.
  await waitFor('the revoked token refused', async () => ((await info(token)) === 401 ? true : undefined));
  expectOnlyProblems(page, [NO_SESSION_YET]);
  await page.context().close();

  const support = await signedIn('support');
  await support.goto(at(`/console/accounts/${accountId}`));
  await heading(support, 'Console Co');
  await expect(support.getByRole('heading', { name: 'Access tokens' }).count()).resolves.toBe(0);
  await support.context().close();
}, 60_000);
