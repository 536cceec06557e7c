import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DESKTOP,
  PHONE,
  accessibilityViolations,
  expectAccessible,
  expectNoPageErrors,
  newPage,
  pageProblems,
  pageRequests,
  screenshot,
  useBrowser,
} from '../support/browser';

// The browser kit itself (test/support/browser.ts), against pages served from 127.0.0.1 under the same kind of
// CSP as Eligo's pages: each thing the kit must catch is caught, and a clean page passes.
const CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const page = (body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kit</title></head><body>${body}</body></html>`;

const ROUTES: Record<string, { type: string; body: string | Buffer; csp?: boolean }> = {
  '/clean': {
    type: 'text/html',
    body: page('<main><h1>Clean</h1><script src="/app.js"></script></main>'),
    csp: true,
  },
  '/app.js': { type: 'text/javascript', body: "document.title = 'app ran';" },
  '/inline': {
    type: 'text/html',
    body: page("<main><script>document.title = 'inline ran';</script></main>"),
    csp: true,
  },
  '/throws': { type: 'text/html', body: page('<main><script src="/throw.js"></script></main>'), csp: true },
  '/throw.js': { type: 'text/javascript', body: "throw new Error('boom from the page');" },
  '/missing': {
    type: 'text/html',
    body: page('<main><script src="/nothing-here.js"></script></main>'),
    csp: true,
  },
  // No CSP: the requests to other hosts get as far as the context's route, which must stop them.
  '/external': {
    type: 'text/html',
    body: page(
      '<main><img alt="remote" src="http://example.com/remote.png"><script src="/external.js"></script></main>',
    ),
  },
  '/external.js': {
    type: 'text/javascript',
    body: "fetch('https://eligo-kit-test.example.org/data').catch(() => {}); new WebSocket('wss://example.net/socket');",
  },
  '/inaccessible': { type: 'text/html', body: page('<main><img src="/pixel.png"></main>'), csp: true },
  '/pixel.png': { type: 'image/png', body: PIXEL },
};

const browser = useBrowser();
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = ROUTES[req.url ?? ''];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': route.type,
      ...(route.csp ? { 'content-security-policy': CSP } : {}),
    });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function open(path: string, options: { axe?: boolean } = {}) {
  const p = await newPage(browser(), DESKTOP, options);
  await p.goto(`${origin}${path}`);
  await p.waitForLoadState('networkidle');
  return p;
}

it('passes a clean page, and writes its full-page screenshot to test/artifacts/', async () => {
  const p = await open('/clean');
  expect(await p.title()).toBe('app ran');
  expectNoPageErrors(p);
  expect(pageRequests(p).filter((url) => !url.endsWith('/favicon.ico'))).toEqual([
    `${origin}/clean`,
    `${origin}/app.js`,
  ]);
  const file = await screenshot(p, 'kit-clean');
  expect(file).toMatch(/test\/artifacts\/kit-clean\.png$/);
  expect(existsSync(file)).toBe(true);
  rmSync(file);
  await p.context().close();
});

it('catches a CSP violation (an inline script under a CSP without unsafe-inline) as a console error', async () => {
  const p = await open('/inline');
  expect(await p.title()).toBe('kit'); // the script did not run
  expect(() => expectNoPageErrors(p)).toThrow(/console error: .*Content Security Policy/);
  await p.context().close();
});

it('catches an uncaught error of the page, and a failed load', async () => {
  const throws = await open('/throws');
  expect(() => expectNoPageErrors(throws)).toThrow(/page error: .*boom from the page/);
  await throws.context().close();
  const missing = await open('/missing');
  expect(() => expectNoPageErrors(missing)).toThrow(/console error: .*404/);
  await missing.context().close();
});

it('blocks every request to a host other than 127.0.0.1 (images, fetch, WebSocket) and counts it', async () => {
  const p = await open('/external');
  const { blockedRequests } = pageProblems(p);
  expect(blockedRequests).toEqual(
    expect.arrayContaining([
      'GET http://example.com/remote.png',
      'GET https://eligo-kit-test.example.org/data',
      'WebSocket wss://example.net/socket',
    ]),
  );
  expect(() => expectNoPageErrors(p)).toThrow(
    /request to a host other than 127\.0\.0\.1 \(blocked\): GET http:\/\/example\.com/,
  );
  await p.context().close();
});

describe('expectAccessible', () => {
  it('fails on a serious or critical violation, naming the rule, its impact, its help and the element', async () => {
    const p = await open('/inaccessible', { axe: true });
    await expect(expectAccessible(p)).rejects.toThrow(
      /image-alt \(critical\): Images must have alternative text\n\s+img/,
    );
    await p.context().close();
  });

  it('accepts a known violation of the named elements only, and fails on a known one that no longer occurs', async () => {
    const p = await open('/inaccessible', { axe: true });
    await expectAccessible(p, { known: [{ id: 'image-alt', targets: /^img$/, why: 'the test page' }] });
    await expect(
      expectAccessible(p, { known: [{ id: 'image-alt', targets: /^main > img$/, why: 'another element' }] }),
    ).rejects.toThrow(/image-alt \(critical\)/);
    await expect(
      expectAccessible(p, {
        known: [
          { id: 'image-alt', why: 'the test page' },
          { id: 'select-name', why: 'not on this page' },
        ],
      }),
    ).rejects.toThrow(/known violation select-name no longer occurs/);
    await p.context().close();
  });

  it('runs only in a page opened for it, the only kind whose context bypasses the CSP', async () => {
    const strict = await newPage(browser(), PHONE);
    await strict.goto(`${origin}/inline`);
    expect(await strict.title()).toBe('kit');
    await expect(accessibilityViolations(strict)).rejects.toThrow(
      /needs a page opened with newPage\(.*\{ axe: true \}\)/,
    );
    await strict.context().close();
    const axe = await open('/inline', { axe: true });
    expect(await axe.title()).toBe('inline ran'); // bypassCSP: the page's CSP is not enforced here
    await expectAccessible(axe);
    await axe.context().close();
  });
});
