import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  expectAccessible,
  expectNoPageErrors,
  newPage,
  pageRequests,
  screenshot,
  useBrowser,
  type KnownViolation,
} from '../support/browser';
import { startEligoSuite, type EligoSuite } from '../support/eligo-process';

// The rendered API reference, /rest/v2/docs/ (swagger-ui served by the gateway under a strict CSP), in Debian's
// Chromium against a real `eligo start --target all`: it renders every operation of the served document, on a
// desktop and on a phone, with no console error (a CSP violation is one), no failed request, and no request to
// any host but the gateway's.
const adminToken = `eligo_admin_${'browser'.repeat(5)}`;
const browser = useBrowser();
let suite: EligoSuite;
let origin: string;
let docsUrl: string;
/** The id swagger-ui gives each operation's element: `operations-<first tag>-<operationId>`. */
let operationElementIds: string[];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

beforeAll(async () => {
  suite = await startEligoSuite(adminToken);
  origin = suite.eligo.httpUrl;
  docsUrl = `${origin}/rest/v2/docs/`;
  const document = (await (await fetch(`${origin}/rest/v2/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
  };
  operationElementIds = Object.values(document.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([, op]) => `operations-${op.tags?.[0] ?? 'default'}-${op.operationId}`),
  );
}, 120_000);
afterAll(() => suite?.stop(), 60_000);

/** Opens the reference and waits until swagger-ui has rendered the operations (POST /verification among them). */
async function openReference(page: Page): Promise<void> {
  const response = await page.goto(docsUrl, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  const startVerification = page.locator('#operations-verification-startVerification');
  await startVerification.waitFor({ state: 'visible', timeout: 30_000 });
  await expect(startVerification.locator('.opblock-summary-method').textContent()).resolves.toBe('POST');
  await expect(startVerification.locator('.opblock-summary-path').getAttribute('data-path')).resolves.toBe(
    '/verification',
  );
  // Nothing more in flight (the document, the fonts and images of swagger-ui's stylesheet).
  await page.waitForLoadState('networkidle');
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('/rest/v2/docs/ on a %s', (name, viewport) => {
  let page: Page;

  beforeAll(async () => {
    page = await newPage(browser(), viewport);
    await openReference(page);
  }, 60_000);
  afterAll(() => page?.context().close());

  it('renders every operation of the served document', async () => {
    expect(operationElementIds.length).toBeGreaterThan(50);
    const rendered = await page
      .locator('.opblock[id^="operations-"]')
      .evaluateAll((els) => els.map((e) => e.id));
    expect(operationElementIds.filter((id) => !rendered.includes(id))).toEqual([]);
    await expect(page.locator('.information-container .title').textContent()).resolves.toMatch(/Eligo/);
  });

  it('has no console error (CSP violations included), no page error and no failed request', () => {
    expectNoPageErrors(page);
  });

  it('requests nothing but the gateway, only over the page origin', () => {
    const requests = pageRequests(page);
    expect(requests).toContain(docsUrl);
    expect(requests).toContain(`${origin}/rest/v2/openapi.json`);
    // data: URLs are the icons of swagger-ui's stylesheet (img-src allows them); everything else is the gateway.
    expect(requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
  });

  it(`is captured in test/artifacts/api-reference-${name}.png`, async () => {
    const file = await screenshot(page, `api-reference-${name}`);
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});

/**
 * Violations of swagger-ui itself (swagger-ui-dist 5.35's markup and stylesheet, which the gateway serves as they
 * are) that the reference accepts for now, each limited to the elements it is about: the same rule on any other
 * element, or any other serious or critical violation, fails. An entry that no longer matches anything fails too.
 */
const KNOWN_SWAGGER_UI_VIOLATIONS: KnownViolation[] = [
  {
    // The Servers <select> is wrapped in an empty <label for="servers">; its caption "Servers" is a sibling <span>.
    // swagger-api/swagger-ui#6512, #10698.
    id: 'select-name',
    targets: /^#servers$/,
    why: "swagger-ui's Servers select has no accessible name",
  },
  {
    // Each operation's summary <button> holds the deep link <a class="nostyle" href="#/tag/operationId"> of its
    // path (deepLinking: true). swagger-api/swagger-ui#9570, #10704.
    id: 'nested-interactive',
    targets: /^#operations-[\w-]+ > \.opblock-summary > \.opblock-summary-control$/,
    why: "swagger-ui nests the operation's deep link in its summary button",
  },
  {
    // The method badges: white on swagger-ui's method colours (POST #49cc90 2.03:1, GET #61affe 2.31:1, PUT
    // #fca130 2.04:1, DELETE #f93e3e 3.62:1, PATCH #50e3c2 1.6:1, deprecated #f1f1f1 1.11:1; 4.5:1 needed).
    id: 'color-contrast',
    targets:
      /^#operations-[\w-]+ > \.opblock-summary > \.opblock-summary-control > \.opblock-summary-method$/,
    why: "swagger-ui's HTTP method badges",
  },
  {
    // The version badges beside the title: white on #7d8492 (3.75:1) and on #89bf04 ("OAS 3.1", 2.2:1).
    id: 'color-contrast',
    targets: /^(small:nth-child\(1\)|\.version-stamp) > pre$/,
    why: "swagger-ui's version badges",
  },
  {
    // The licence link of the info block: #4990e2 on #fafafa (3.15:1).
    id: 'color-contrast',
    targets: /^\.link$/,
    why: "swagger-ui's link colour",
  },
  {
    // The Authorize button's label: #49cc90 on white (2.03:1).
    id: 'color-contrast',
    targets: /^\.btn > span$/,
    why: "swagger-ui's Authorize button",
  },
  {
    // swagger-ui greys out deprecated operations (#878b95 on #f9f9f9, 3.23:1): the three deprecated organization
    // searches of REST v2 (a newly deprecated operation is added here).
    id: 'color-contrast',
    targets:
      /^(#operations-organization-searchOrganizations(Student|Military|Teacher) > \.opblock-summary > \.opblock-summary-control > \.opblock-summary-path-description-wrapper > \.opblock-summary-description|span\[data-path="\/organization\/(student|military|teacher)"\] > \.nostyle > span)$/,
    why: "swagger-ui's deprecated operations",
  },
  {
    // The "Expand all" button of each schema of the Schemas section: #afaeae on #efefef (1.92:1).
    id: 'color-contrast',
    targets:
      /^div\[data-index="\d+"\] > article > \.json-schema-2020-12-head > \.json-schema-2020-12-expand-deep-button\[type="button"\]$/,
    why: "swagger-ui's schema expand buttons",
  },
];

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('/rest/v2/docs/ on a %s, checked by axe-core', (_name, viewport) => {
  it('has no accessibility violation of impact serious or critical but the known ones of swagger-ui', async () => {
    const page = await newPage(browser(), viewport, { axe: true });
    try {
      await openReference(page);
      await expectAccessible(page, { known: KNOWN_SWAGGER_UI_VIOLATIONS });
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
