import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Axe from 'axe-core';
import { ensureChromium } from '@eligo/local-infra';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

/**
 * The browser kit of the browser tests (test/browser/): Debian's Chromium (ensureChromium of @eligo/local-infra,
 * installed with apt-get when missing; no browser is ever downloaded) driven by playwright-core. Pages see only
 * 127.0.0.1: any request to another host is aborted and counted as a failure of the page.
 */

/**
 * The flags of every launch. Headless without a GPU; --no-sandbox because the tests run as root in containers,
 * where Chromium's sandbox cannot start; the rest keep the browser itself quiet, so that the only traffic is the
 * pages' own: no background requests to Google (component updates, sync, field trials, safe browsing lists), no
 * first-run UI, and no QUIC.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/** A phone (an iPhone 12 to 15's CSS viewport), touch and mobile layout. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};

/** A common laptop screen. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };

/** test/artifacts/ (gitignored): screenshots of the last run. */
export const ARTIFACTS_DIR = join(__dirname, '..', 'artifacts');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

function log(line: string): void {
  process.stderr.write(`[browser] ${line}\n`);
}

/**
 * Debian's Chromium (installed first if missing), launched headless with CHROMIUM_ARGS. playwright-core gives
 * every launch a fresh temporary profile (user data dir), removed when the browser closes. One browser per test
 * file: useBrowser() launches and closes it.
 */
export async function launchBrowser(): Promise<Browser> {
  const { path, version } = await ensureChromium({ log });
  log(`${version} (${path})`);
  return chromium.launch({
    executablePath: path,
    headless: true,
    args: [...CHROMIUM_ARGS],
    timeout: 60_000,
  });
}

/**
 * Closes the browser, and every context and page of it. A browser that does not close in time fails the
 * caller; playwright-core still kills the process it launched when the jest worker exits.
 */
export async function closeBrowser(browser: Browser | undefined, timeoutMs = 20_000): Promise<void> {
  if (!browser?.isConnected()) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      browser.close(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the browser did not close within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One browser for the test file: launched in beforeAll (which may install Chromium first, hence the long
 * timeout) and closed in afterAll. Returns a getter for the tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 15 * 60_000);
  afterAll(() => closeBrowser(browser), 30_000);
  return () => {
    if (!browser) throw new Error('the browser did not launch (see beforeAll)');
    return browser;
  };
}

/** What went wrong in a page, as the page's listeners saw it. */
export interface PageProblems {
  /** console.error messages and the browser's own error lines: CSP violations, failed loads (status >= 400). */
  consoleErrors: string[];
  /** Uncaught exceptions and unhandled rejections of the page's scripts. */
  pageErrors: string[];
  /** Requests that got no response (network errors, aborted loads), blocked ones excepted. */
  failedRequests: string[];
  /** Requests to a host other than 127.0.0.1 or localhost: aborted by the context's route, and a failure. */
  blockedRequests: string[];
}

interface Watched {
  problems: PageProblems;
  /** Every request the page made, in order (URLs). */
  requests: string[];
}

const watched = new WeakMap<Page, Watched>();
/** Contexts created for an axe run (CSP bypassed): only their pages may run expectAccessible. */
const axeContexts = new WeakSet<BrowserContext>();
/** What the context's route blocked, when no page could be named (requests of workers). */
const contextBlocked = new WeakMap<BrowserContext, string[]>();

function isLocal(url: string): boolean {
  try {
    return LOCAL_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

function watch(page: Page): Watched {
  const existing = watched.get(page);
  if (existing) return existing;
  const w: Watched = {
    problems: { consoleErrors: [], pageErrors: [], failedRequests: [], blockedRequests: [] },
    requests: [],
  };
  watched.set(page, w);
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const { url, lineNumber } = msg.location();
    w.problems.consoleErrors.push(`${msg.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (err) => w.problems.pageErrors.push(err.stack ?? err.message));
  page.on('request', (req) => w.requests.push(req.url()));
  page.on('requestfailed', (req) => {
    if (!isLocal(req.url()) && /^(https?|wss?):/.test(req.url())) return; // counted as blocked by the route
    w.problems.failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText ?? 'failed'}`);
  });
  return w;
}

export interface NewPageOptions {
  /**
   * For expectAccessible: the context bypasses the page's Content-Security-Policy (bypassCSP), because axe-core
   * is injected as an inline <script> (page.addScriptTag), which a CSP without 'unsafe-inline' refuses. Such a
   * page no longer shows CSP violations, so check those (expectNoPageErrors) in a page opened without this.
   */
  axe?: boolean;
}

/**
 * A page in a new context of `viewport` (PHONE, DESKTOP). The context aborts every request to a host other than
 * 127.0.0.1 or localhost (counted in the page's blockedRequests), blocks service workers (whose requests would
 * escape the route), and the page's console errors, page errors and failed requests are collected for
 * expectNoPageErrors. Close it with `page.context().close()` (or let closeBrowser do it).
 */
export async function newPage(
  browser: Browser,
  viewport: BrowserContextOptions,
  options: NewPageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    ...viewport,
    serviceWorkers: 'block',
    ...(options.axe ? { bypassCSP: true } : {}),
  });
  if (options.axe) axeContexts.add(context);
  contextBlocked.set(context, []);
  context.on('page', (page) => watch(page)); // popups too
  await context.route('**/*', async (route) => {
    const request = route.request();
    if (isLocal(request.url())) return route.continue();
    let page: Page | undefined;
    try {
      page = request.frame().page();
    } catch {
      // a worker's request: no frame
    }
    const line = `${request.method()} ${request.url()}`;
    if (page) watch(page).problems.blockedRequests.push(line);
    else contextBlocked.get(context)?.push(line);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(
    (url) => !isLocal(url.href),
    (ws) => {
      contextBlocked.get(context)?.push(`WebSocket ${ws.url()}`);
      return ws.close({ code: 1008, reason: 'blocked: not 127.0.0.1' });
    },
  );
  const page = await context.newPage();
  watch(page);
  return page;
}

/** What the page's listeners collected so far (blocked requests of its context's workers included). */
export function pageProblems(page: Page): PageProblems {
  const { problems } = watch(page);
  return {
    ...problems,
    blockedRequests: [...problems.blockedRequests, ...(contextBlocked.get(page.context()) ?? [])],
  };
}

/** The URLs of every request the page made, in order (blocked ones included). */
export function pageRequests(page: Page): string[] {
  return [...watch(page).requests];
}

/**
 * Fails, listing every one, if the page had a console error (a CSP violation is one), an uncaught error, a failed
 * request or a request to a host other than 127.0.0.1.
 */
export function expectNoPageErrors(page: Page): void {
  const p = pageProblems(page);
  const lines = [
    ...p.consoleErrors.map((e) => `console error: ${e}`),
    ...p.pageErrors.map((e) => `page error: ${e}`),
    ...p.failedRequests.map((e) => `request failed: ${e}`),
    ...p.blockedRequests.map((e) => `request to a host other than 127.0.0.1 (blocked): ${e}`),
  ];
  if (lines.length > 0) {
    throw new Error(
      `${page.url()} had ${lines.length} problem(s):\n${lines.map((l) => `  - ${l}`).join('\n')}`,
    );
  }
}

/** A full-page PNG in test/artifacts/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`bad screenshot name "${name}"`);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** One violation of an axe rule, as expectAccessible reports it. */
export interface AccessibilityViolation {
  id: string;
  impact: string;
  help: string;
  /** The CSS selector of each element that violates it. */
  targets: string[];
}

/**
 * A violation a test accepts for now: the rule, and optionally which elements (a violation of the rule on any
 * other element still fails). `why` says why it is accepted; an entry that matches nothing fails, so the list
 * shrinks when the page is fixed.
 */
export interface KnownViolation {
  id: string;
  targets?: RegExp;
  why: string;
}

export interface AccessibleOptions {
  known?: KnownViolation[];
  /** Passed to axe.run (runOnly, rules, ...). By default every rule axe-core enables by default runs. */
  axeOptions?: Axe.RunOptions;
}

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);
let axeSource: string | undefined;

/** Runs axe-core in the page and returns its violations of impact serious or critical. */
export async function accessibilityViolations(
  page: Page,
  axeOptions: Axe.RunOptions = {},
): Promise<AccessibilityViolation[]> {
  if (!axeContexts.has(page.context())) {
    throw new Error('expectAccessible needs a page opened with newPage(browser, viewport, { axe: true })');
  }
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(
    (options) =>
      (globalThis as unknown as { axe: typeof Axe }).axe.run(
        { exclude: [] as string[] },
        { ...options, resultTypes: ['violations'] },
      ),
    axeOptions,
  );
  return results.violations
    .filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ''))
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : t)).join(' ')),
    }));
}

/**
 * Fails if axe-core finds a violation of impact serious or critical that `known` does not accept, listing each
 * (rule id, impact, help, the selector of every element); fails too when a known entry matches nothing.
 */
export async function expectAccessible(page: Page, options: AccessibleOptions = {}): Promise<void> {
  const known = options.known ?? [];
  const used = new Set<KnownViolation>();
  const failures: AccessibilityViolation[] = [];
  for (const v of await accessibilityViolations(page, options.axeOptions)) {
    const rest: string[] = [];
    for (const target of v.targets) {
      const entry = known.find((k) => k.id === v.id && (!k.targets || k.targets.test(target)));
      if (entry) used.add(entry);
      else rest.push(target);
    }
    if (rest.length > 0) failures.push({ ...v, targets: rest });
  }
  const unused = known.filter((k) => !used.has(k));
  if (failures.length === 0 && unused.length === 0) return;
  const lines = [
    ...failures.map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n${v.targets.map((t) => `      ${t}`).join('\n')}`,
    ),
    ...unused.map(
      (k) => `known violation ${k.id}${k.targets ? ` ${k.targets}` : ''} no longer occurs: remove it`,
    ),
  ];
  throw new Error(
    `${page.url()}: ${failures.length} accessibility violation(s) of impact serious or critical` +
      `${unused.length ? `, ${unused.length} stale known one(s)` : ''}:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
  );
}
