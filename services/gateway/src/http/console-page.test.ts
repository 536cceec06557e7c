import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthCache } from '../auth/auth-cache';
import { createAuthenticator } from '../auth/authenticator';
import { operationRoles } from '../endpoints/admin-roles';
import type { StaffAccess } from '../staff/staff-access';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';
import { CONSOLE_CSP, consolePageRouter } from './console-page';

// The staff console as mountRest mounts it: one shell under a strict CSP for /console and every address under
// it, the build's assets (immutable), and /console/session left to the session API, which is mounted first.
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({
    // A gateway that keeps staff: the session router answers /console/session (without a cookie it calls
    // nothing of the store).
    authenticator: createAuthenticator({
      operatorToken: TEST_OPERATOR_TOKEN,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async () => {
        throw Object.assign(new Error('bad token'), { code: 16, details: 'bad token', metadata: undefined });
      },
      staff: { access: standIn<StaffAccess>('staff access'), signInLimit: (_req, _res, next) => next() },
    }),
  });
});
afterAll(() => app.close());

const get = (path: string, init?: RequestInit) => fetch(`${app.origin}${path}`, init);
const assetsOf = (html: string) =>
  [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
const bootstrapOf = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="eligo-console-bootstrap">(.*?)<\/script>/s.exec(html)![1]!,
  );

describe('GET /console', () => {
  it('answers the shell under a CSP without inline script, framed by nobody, showing files of its own origin', async () => {
    const res = await get('/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(CONSOLE_CSP);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "img-src 'self'",
      "frame-src 'self'",
      "object-src 'self'",
      "frame-ancestors 'none'",
    ])
      expect(csp.split('; ')).toContain(directive);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(assetsOf(html)).toHaveLength(2);
    // The only script elements: a JSON data block, which a CSP never runs, and the bundle.
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!.trim());
    expect(scripts).toEqual([
      'type="application/json" id="eligo-console-bootstrap"',
      expect.stringMatching(/^src="\/console\/assets\/console-[A-Z0-9]+\.js" defer$/),
    ]);
    // The role table the staff guard enforces, so that the page hides what a role may not do; no OIDC yet.
    expect(bootstrapOf(html)).toEqual({ roles: operationRoles, signIn: { organization: null } });
  });

  it.each([
    '/console/',
    '/console/reviews',
    '/console/reviews/3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b',
    '/console/x/y/z',
  ])('answers the same shell at %s (the console routes in the browser)', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(await res.text()).toContain('<div id="eligo-console"></div>');
  });

  it('offers the organization sign-in only when it is given', () => {
    const shellOf = (router: express.Router) =>
      new Promise<string>((resolve, reject) => {
        const server = createServer(express().use(router)).listen(0, '127.0.0.1', async () => {
          try {
            const port = (server.address() as AddressInfo).port;
            resolve(await (await fetch(`http://127.0.0.1:${port}/console`)).text());
          } catch (err) {
            reject(err);
          } finally {
            server.close();
          }
        });
      });
    // The button goes to the gateway's OIDC start (routes/console-oidc.ts), a redirect flow.
    return expect(
      shellOf(consolePageRouter({ oidcLabel: 'Sign in with Example SSO' })).then(bootstrapOf),
    ).resolves.toEqual({
      roles: operationRoles,
      signIn: { organization: { label: 'Sign in with Example SSO', url: '/console/session/oidc' } },
    });
  });

  it('leaves /console/session to the session API', async () => {
    const res = await get('/console/session');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      systemErrorMessage: 'No staff session: sign in with POST /console/session',
    });
    const trailing = await get('/console/session/');
    expect(trailing.status).toBe(401);
  });

  it('answers other methods as no page', async () => {
    const res = await get('/console/reviews', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).not.toBe(CONSOLE_CSP);
  });
});

describe('GET /console/assets/{name}', () => {
  it('serves the manifest files for a year, immutable', async () => {
    const html = await (await get('/console')).text();
    for (const asset of assetsOf(html)) {
      const res = await get(asset);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /javascript/ : /^text\/css/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await res.text()).length).toBeGreaterThan(100);
    }
  });

  it('serves nothing but the manifest files', async () => {
    for (const path of [
      '/console/assets/manifest.json',
      '/console/assets/..%2Fmanifest.json',
      '/console/assets/console.js',
    ]) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.headers.get('content-type')).not.toMatch(/html/);
    }
  });
});
