import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { waitFor } from '@eligo/local-infra';
import {
  DESKTOP,
  PHONE,
  expectAccessible,
  expectNoPageErrors,
  newPage,
  pageProblems,
  screenshot,
  useBrowser,
} from '../support/browser';
import { sampleFiles } from '../support/documents-api';
import { startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';

// The hosted verification page (/verify/{programId}) in Debian's Chromium against `eligo start --target all`:
// a person verifies as a student, uploads a document that staff approve while the page waits, and goes
// through a military program's status and social security number steps; on a phone and on a desktop, with
// no console error (a CSP violation is one), no request leaving 127.0.0.1, and no serious accessibility issue.
const adminToken = `eligo_admin_${'hosted'.repeat(5)}`;
const browser = useBrowser();
let suite: EligoSuite;
let api: ProgramsApi;
let studentProgram: string;
let militaryProgram: string;

beforeAll(async () => {
  suite = await startEligoSuite(adminToken);
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken });
  const account = await api.createAccount('Hosted Page Co');
  studentProgram = (
    await api.createProgram(account.accountId, { offerType: 'staticCode', rewardCode: 'BROWSER-10' })
  ).programId;
  militaryProgram = (
    await api.createProgram(account.accountId, {
      segment: 'military',
      offerType: 'staticCode',
      rewardCode: 'SALUTE',
    })
  ).programId;
  const orgs = organizationsApi(api);
  const imported = await orgs.importCsv([
    {
      externalId: 'browser-u1',
      name: 'Browser State University',
      type: 'UNIVERSITY',
      country: 'US',
      domains: [],
    },
    { externalId: 'browser-m1', name: 'Browser Army', type: 'MILITARY', country: 'US', domains: [] },
  ]);
  expect(imported.status).toBe(200);
}, 120_000);
afterAll(() => suite?.stop(), 60_000);

const pageUrl = (programId: string, query = '') => `${suite.eligo.httpUrl}/verify/${programId}${query}`;

/** Waits for the step whose heading is `text`; on a timeout, says which step and which alerts are showing. */
async function expectStep(page: Page, text: string): Promise<void> {
  try {
    await page.locator('h1', { hasText: text }).waitFor({ timeout: 15_000 });
  } catch {
    const shown = await page.locator('h1').allTextContents();
    const alerts = await page.locator('[role=alert], .field__error').allTextContents();
    throw new Error(
      `expected the step "${text}", showing ${JSON.stringify(shown)}; alerts ${JSON.stringify(alerts)}`,
    );
  }
}

async function chooseOrganization(page: Page, typed: string, name: string): Promise<void> {
  await page.locator('#f-organization').fill(typed);
  const option = page.getByRole('option', { name });
  await option.waitFor({ state: 'visible', timeout: 10_000 });
  await page.locator('#f-organization').press('ArrowDown');
  await page.locator('#f-organization').press('Enter');
  await expect(page.locator('#f-organization').inputValue()).resolves.toBe(name);
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('on a %s', (name, viewport) => {
  it('a student verifies in test mode to success, the code ready to copy', async () => {
    const page = await newPage(browser(), viewport);
    await page.goto(pageUrl(studentProgram, '?trackingId=hosted-1&email=jane.doe%40example.com'));
    await expectStep(page, 'Tell us about yourself');
    // The prefilled email is in the form and out of the URL.
    await expect(page.locator('#f-email').inputValue()).resolves.toBe('jane.doe@example.com');
    expect(page.url()).toBe(pageUrl(studentProgram, '?trackingId=hosted-1'));

    // Nothing sent with empty fields: each required one says so, and focus goes to the first.
    await page.getByRole('button', { name: 'Verify my eligibility' }).click();
    await expect(page.locator('#f-firstName-error').textContent()).resolves.toBe('First name is required.');
    await expect(page.locator('#f-firstName').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.evaluate('document.activeElement && document.activeElement.id')).resolves.toBe(
      'f-firstName',
    );
    await screenshot(page, `verify-student-errors-${name}`);

    await page.locator('#f-firstName').fill('Jane');
    await page.locator('#f-lastName').fill('Doe');
    await page.locator('#f-birthDate').fill('2000-01-31');
    await chooseOrganization(page, 'Browser St', 'Browser State University');
    await screenshot(page, `verify-student-form-${name}`);
    await page.getByRole('button', { name: 'Verify my eligibility' }).click();

    await expectStep(page, 'You are verified');
    await expect(page.locator('#reward-code').textContent()).resolves.toBe('BROWSER-10');
    await expect(page.getByRole('button', { name: 'Copy code' }).isVisible()).resolves.toBe(true);
    // The new step's heading has the focus, so that a screen reader starts there.
    await expect(page.evaluate('document.activeElement && document.activeElement.id')).resolves.toBe(
      'step-title',
    );
    await screenshot(page, `verify-student-success-${name}`);
    expectNoPageErrors(page);
    await page.context().close();
  }, 60_000);

  it('passes axe with no serious or critical violation, form and success', async () => {
    const page = await newPage(browser(), viewport, { axe: true });
    await page.goto(pageUrl(studentProgram));
    await expectStep(page, 'Tell us about yourself');
    await page.getByRole('button', { name: 'Verify my eligibility' }).click();
    await page.locator('#f-firstName-error').waitFor();
    await expectAccessible(page);
    await page.locator('#f-firstName').fill('Jane');
    await page.locator('#f-lastName').fill('Doe');
    await page.locator('#f-birthDate').fill('2000-01-31');
    await page.locator('#f-email').fill('jane@example.com');
    await chooseOrganization(page, 'Browser St', 'Browser State University');
    await page.getByRole('button', { name: 'Verify my eligibility' }).click();
    await expectStep(page, 'You are verified');
    await expectAccessible(page);
    await page.context().close();
  }, 60_000);
});

/** A student whose first name (UPLOAD) sends them to the document upload: the page at that step. */
async function atUploadStep(viewport: typeof DESKTOP, lastName: string): Promise<Page> {
  const page = await newPage(browser(), viewport);
  await page.goto(pageUrl(studentProgram));
  await expectStep(page, 'Tell us about yourself');
  await page.locator('#f-firstName').fill('UPLOAD');
  await page.locator('#f-lastName').fill(lastName);
  await page.locator('#f-birthDate').fill('2000-01-31');
  await page.locator('#f-email').fill(`upload.${lastName.toLowerCase()}@example.com`);
  await chooseOrganization(page, 'Browser', 'Browser State University');
  await page.getByRole('button', { name: 'Verify my eligibility' }).click();
  await expectStep(page, 'Upload a document');
  return page;
}

it('a document upload waits for staff and the page turns to success by itself', async () => {
  const page = await atUploadStep(PHONE, 'Doe');

  // Checked before anything is sent: a text file is refused by its type.
  await page
    .locator('#f-files')
    .setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: sampleFiles.text }]);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.locator('#upload-problems').textContent()).resolves.toContain(
    'notes.txt is not a JPEG, PNG, GIF or PDF file.',
  );
  await page.getByRole('button', { name: 'Remove notes.txt' }).click();

  await page
    .locator('#f-files')
    .setInputFiles([{ name: 'student-card.png', mimeType: 'image/png', buffer: sampleFiles.png }]);
  await screenshot(page, 'verify-upload-phone');
  await page.getByRole('button', { name: 'Upload' }).click();
  await expectStep(page, 'We are reviewing your document');
  await screenshot(page, 'verify-pending-phone');

  // Staff approve it (the admin review API); the page, polling, moves on without a reload.
  const review = await waitFor('the pending review', async () => {
    const reply = await api.admin('GET', '/reviews?status=pending&limit=100');
    return (reply.body.reviews as { reviewId: string }[] | undefined)?.[0];
  });
  const decided = await api.admin('POST', `/reviews/${review.reviewId}/decision`, {
    body: { decision: 'approve' },
  });
  expect(`${decided.status} ${JSON.stringify(decided.body)}`).toMatch(/^200 /);
  await page.locator('#reward-code').waitFor({ timeout: 20_000 });
  await expectStep(page, 'You are verified');
  expectNoPageErrors(page);
  await page.context().close();
}, 90_000);

it('a file the server refuses, or an upload link used meanwhile, keeps the person on the upload step', async () => {
  const page = await atUploadStep(DESKTOP, 'Roe');

  // Text bytes under a PNG name and type pass the page's checks; the server reads the bytes and refuses them.
  await page
    .locator('#f-files')
    .setInputFiles([{ name: 'scan.png', mimeType: 'image/png', buffer: sampleFiles.text }]);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.locator('#upload-problems').textContent({ timeout: 15_000 })).resolves.toContain(
    'scan.png could not be read as a JPEG, PNG, GIF or PDF file.',
  );
  await expectStep(page, 'Upload a document');
  await page.getByRole('button', { name: 'Remove scan.png' }).click();

  // The next upload link is used by someone else before the page's PUT reaches the server (the real server
  // answers the page's PUT: the link works once): the page asks for the upload again, and the retry works.
  let usedElsewhere = false;
  await page.route('**/uploads/**', async (route) => {
    if (!usedElsewhere) {
      usedElsewhere = true;
      const request = route.request();
      const elsewhere = await fetch(request.url(), {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: request.postDataBuffer() ?? Buffer.alloc(0),
      });
      expect(elsewhere.status).toBe(200);
    }
    await route.continue();
  });
  await page
    .locator('#f-files')
    .setInputFiles([{ name: 'card.png', mimeType: 'image/png', buffer: sampleFiles.png }]);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.locator('#upload-problems').textContent({ timeout: 15_000 })).resolves.toContain(
    'The upload of card.png took too long. Upload your files again.',
  );
  await expectStep(page, 'Upload a document');
  await page.getByRole('button', { name: 'Upload' }).click();
  await expectStep(page, 'We are reviewing your document');
  // The two refused PUTs are logged by the browser as failed loads; nothing else went wrong.
  const problems = pageProblems(page);
  expect(problems.consoleErrors.filter((e) => !/status of (400|404|410)\b.*\/uploads\//.test(e))).toEqual([]);
  expect([problems.pageErrors, problems.failedRequests, problems.blockedRequests]).toEqual([[], [], []]);
  await page.context().close();
}, 90_000);

it('a military person chooses a status, then skips the social security number to the documents', async () => {
  const page = await newPage(browser(), DESKTOP);
  await page.goto(pageUrl(militaryProgram));
  await expectStep(page, 'What is your military status?');
  await page.getByRole('radio', { name: 'Active duty' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'Tell us about yourself');
  await page.locator('#f-firstName').fill('SSN');
  await page.locator('#f-lastName').fill('Doe');
  await page.locator('#f-birthDate').fill('1990-05-01');
  await page.locator('#f-email').fill('ssn@example.com');
  await chooseOrganization(page, 'Browser Ar', 'Browser Army');
  await page.getByRole('button', { name: 'Verify my eligibility' }).click();
  await expectStep(page, 'Confirm your identity');
  await screenshot(page, 'verify-ssn-desktop');
  await page.getByRole('button', { name: 'Upload a document instead' }).click();
  await expectStep(page, 'Upload a document');
  expectNoPageErrors(page);
  await page.context().close();
}, 60_000);

it('an email loop: a short or wrong code is said, a new one waits its minute, the mailed link finishes', async () => {
  const page = await newPage(browser(), DESKTOP);
  await page.goto(pageUrl(studentProgram));
  await expectStep(page, 'Tell us about yourself');
  // Test mode: the first name EMAIL_LOOP takes any address to the email loop.
  await page.locator('#f-firstName').fill('EMAIL_LOOP');
  await page.locator('#f-lastName').fill('Doe');
  await page.locator('#f-birthDate').fill('2000-01-31');
  await page.locator('#f-email').fill('loop@example.com');
  await chooseOrganization(page, 'Browser St', 'Browser State University');
  const submitted = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/step/collectStudentPersonalInfo'),
  );
  await page.getByRole('button', { name: 'Verify my eligibility' }).click();
  const { verificationId } = (await (await submitted).json()) as { verificationId: string };
  await expectStep(page, 'Check your email');
  // Within the cooldown a new code cannot be asked for.
  await expect(page.getByRole('button', { name: 'Send a new code' }).isDisabled()).resolves.toBe(true);

  await page.locator('#f-email-token').fill('12');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.locator('#f-email-token-error').textContent()).resolves.toBe(
    'Enter the 6-digit code from the email.',
  );

  const mailed = await waitFor('the mailed code', async () => {
    const reply = await api.admin('GET', `/messages?verificationId=${verificationId}`);
    return (reply.body.messages as { body: string }[] | undefined)?.[0]?.body;
  });
  const code = /\b(\d{6})\b/.exec(mailed)![1]!;
  const link = /(http\S+#emailToken=\d+)/.exec(mailed)![1]!;
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await page.locator('#f-email-token').fill(`${wrong.slice(0, 3)} ${wrong.slice(3)}`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page
    .locator('#f-email-token-error', { hasText: 'This code is not right' })
    .waitFor({ timeout: 10_000 });
  await expectStep(page, 'Check your email');
  await screenshot(page, 'verify-email-loop-desktop');
  // The wrong code's 400 is the browser's one console line: the answer the step expects.
  const problems = pageProblems(page);
  expect(problems.consoleErrors.filter((e) => !/status of 400\b.*\/step\/emailLoop\b/.test(e))).toEqual([]);
  expect([problems.pageErrors, problems.failedRequests, problems.blockedRequests]).toEqual([[], [], []]);
  await page.context().close();

  // The link of the mail, opened in another browser: the page submits its code and leaves it out of the URL.
  const other = await newPage(browser(), PHONE);
  await other.goto(link);
  await expectStep(other, 'You are verified');
  await expect(other.locator('#reward-code').textContent()).resolves.toBe('BROWSER-10');
  expect(other.url()).not.toContain('emailToken');
  expectNoPageErrors(other);
  await other.context().close();
}, 60_000);

describe('in the locale of the link or the browser', () => {
  let translated: string;

  beforeAll(async () => {
    const account = await api.createAccount('Translated Co');
    translated = (
      await api.createProgram(account.accountId, {
        offerType: 'staticCode',
        rewardCode: 'MERCI',
        theme: {
          intl: {
            locale: 'en-US',
            messages: { 'step.collectPersonalInfo.submit': 'Check me' },
            locales: {
              'fr-fr': {
                messages: {
                  'page.title': 'Vérifiez votre éligibilité',
                  'step.collectPersonalInfo.title': 'Vous',
                },
              },
              de: { messages: { 'step.collectPersonalInfo.title': 'Über Sie' } },
            },
          },
        },
      })
    ).programId;
  });

  it('?locale= picks a translation; a text it leaves out keeps the program’s', async () => {
    const page = await newPage(browser(), DESKTOP);
    await page.goto(pageUrl(translated, '?locale=fr'));
    await expectStep(page, 'Vous');
    await expect(page.title()).resolves.toBe('Vérifiez votre éligibilité');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr-FR');
    await expect(page.getByRole('button', { name: 'Check me' }).isVisible()).resolves.toBe(true);
    expectNoPageErrors(page);
    await page.context().close();
  }, 60_000);

  it('the browser’s language picks one too, and one with no translation gets the program’s texts', async () => {
    for (const [locale, heading, lang] of [
      ['de-AT', 'Über Sie', 'de'],
      ['ja-JP', 'Tell us about yourself', 'en-US'],
    ]) {
      const page = await newPage(browser(), { ...DESKTOP, locale });
      await page.goto(pageUrl(translated));
      await expectStep(page, heading!);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
      expectNoPageErrors(page);
      await page.context().close();
    }
  }, 60_000);
});

describe('embedded on a merchant page', () => {
  let merchant: Server;
  let merchantOrigin: string;
  let embeddableProgram: string;

  beforeAll(async () => {
    // The merchant's page, on another origin (another port), loading embed.js from Eligo.
    merchant = createServer((req, res) => {
      const programId = new URL(req.url ?? '/', 'http://x').searchParams.get('program') ?? '';
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          [
            '<!doctype html><html lang="en"><head><title>Shop</title>',
            `<script src="${suite.eligo.httpUrl}/verify/embed.js"></script></head>`,
            '<body><h1>Checkout</h1><div id="verify"></div><script>',
            'window.events = [];',
            `eligo.loadInlineIframe(${JSON.stringify(programId)}, document.getElementById('verify'), {`,
            '  trackingId: "order-77",',
            '  onStep: (e) => window.events.push(["step", e.currentStep, e.verificationId]),',
            '  onSuccess: (e) => window.events.push(["success", e.rewardCode, e.verificationId]),',
            '});',
            '</script></body></html>',
          ].join('\n'),
        );
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    merchantOrigin = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    const account = await api.createAccount('Embedding Co');
    embeddableProgram = (
      await api.createProgram(account.accountId, {
        offerType: 'staticCode',
        rewardCode: 'EMBED-5',
        embedOrigins: [merchantOrigin],
      })
    ).programId;
  });
  afterAll(() => merchant?.close());

  it("runs in the merchant's iframe and tells the merchant's page each step and the success", async () => {
    const page = await newPage(browser(), DESKTOP);
    await page.goto(`${merchantOrigin}/?program=${embeddableProgram}`);
    const form = page.frameLocator('#verify iframe');
    await form.locator('h1', { hasText: 'Tell us about yourself' }).waitFor({ timeout: 15_000 });
    await form.locator('#f-firstName').fill('Jane');
    await form.locator('#f-lastName').fill('Doe');
    await form.locator('#f-birthDate').fill('2000-01-31');
    await form.locator('#f-email').fill('jane@example.com');
    await form.locator('#f-organization').fill('Browser St');
    await form.getByRole('option', { name: 'Browser State University' }).click();
    await form.getByRole('button', { name: 'Verify my eligibility' }).click();
    await form.locator('#reward-code').waitFor({ timeout: 15_000 });
    const events = await waitFor('the success event', async () => {
      const got = (await page.evaluate('window.events')) as [string, string, string][];
      return got.some((e) => e[0] === 'success') ? got : undefined;
    });
    const verificationId = events[0]![2];
    expect(verificationId).toMatch(/^[0-9a-f]{24}$/);
    expect(events).toEqual([
      ['step', 'collectStudentPersonalInfo', verificationId],
      ['step', 'success', verificationId],
      ['success', 'EMBED-5', verificationId],
    ]);
    await screenshot(page, 'verify-embedded-desktop');
    expectNoPageErrors(page);
    await page.context().close();
  }, 60_000);

  it('is refused by the browser on a page whose origin the program does not list', async () => {
    const page = await newPage(browser(), DESKTOP);
    // The student program lists no origin: its page may not be framed.
    await page.goto(`${merchantOrigin}/?program=${studentProgram}`);
    await page.locator('#verify iframe').waitFor();
    await page.waitForTimeout(1500);
    const frame = page.frames().find((f) => f.url().includes('/verify/'));
    const framed = frame ? await frame.locator('h1').count() : 0;
    expect(framed).toBe(0);
    expect(await page.evaluate('window.events.length')).toBe(0);
    await page.context().close();
  }, 60_000);
});
