import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { operationRoles } from '../endpoints/admin-roles';
import { CONSOLE_SESSION_PATH } from '../routes/console-session';
import { OIDC_START_PATH } from '../staff/oidc';

const YEAR_S = 365 * 24 * 3600;
const ASSETS = '/console/assets';

interface Manifest {
  script: string;
  stylesheet: string;
}

/**
 * The console's policy: its own script and style only (no inline script or style, no eval), calls to Eligo
 * only, framed by nobody. A review's files are shown in the page from the gateway's own file route: images
 * (img-src) and PDFs in a frame or object (frame-src, object-src), all 'self'.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-src 'self'; " +
  "object-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** JSON inside a script element: "<" escaped, so that no value can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function shell(manifest: Manifest, bootstrap: unknown): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    '<title>Eligo console</title>',
    `<link rel="stylesheet" href="${ASSETS}/${manifest.stylesheet}">`,
    // Data, not script (CSP does not run it): which roles may call each admin operation, how to sign in.
    `<script type="application/json" id="eligo-console-bootstrap">${scriptJson(bootstrap)}</script>`,
    `<script src="${ASSETS}/${manifest.script}" defer></script>`,
    '</head>',
    '<body>',
    '<div id="eligo-console"></div>',
    '<noscript><p>The Eligo console needs JavaScript.</p></noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function securityHeaders(res: Response, csp: string): void {
  res.set({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    // Addresses of the console name reviews and verifications: they go nowhere.
    'Referrer-Policy': 'no-referrer',
  });
}

export interface ConsolePageOptions {
  /**
   * The words of the "Sign in with your organization" button, when staff may sign in with the operator's
   * OpenID provider (ELIGO_GATEWAY_STAFF_OIDC_*); without it the console offers the password alone.
   */
  oidcLabel?: string;
}

/**
 * The staff console (docs/console.md): GET /console and every address under it (the console's own pages,
 * routed in the browser) answer one HTML shell that loads the console's script and stylesheet (built by
 * @eligo/web-console, content-hashed, immutable, under /console/assets/), with the role table of the admin API
 * as data so that the console shows each member only what their role may do (the API enforces it all the
 * same). /console/session is the session API's (routes/console-session.ts), never the shell's, whichever router
 * comes first. Only the files of the build manifest are served; nothing is looked up by the requested name.
 */
export function consolePageRouter(options: ConsolePageOptions = {}): Router {
  const manifestFile = require.resolve('@eligo/web-console/dist/manifest.json');
  const dist = dirname(manifestFile);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const assets = new Map([
    [manifest.script, join(dist, 'assets', manifest.script)],
    [manifest.stylesheet, join(dist, 'assets', manifest.stylesheet)],
  ]);
  const html = shell(manifest, {
    roles: operationRoles,
    // The organization's sign-in is a redirect flow of the gateway (routes/console-oidc.ts): a plain link.
    signIn: { organization: options.oidcLabel ? { label: options.oidcLabel, url: OIDC_START_PATH } : null },
  });

  const router = Router();
  router.get(`${ASSETS}/:name`, (req, res, next) => {
    const file = assets.get(String(req.params.name));
    if (!file) return notFound(res);
    securityHeaders(res, "default-src 'none'");
    res.sendFile(file, { maxAge: YEAR_S * 1000, immutable: true }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });
  router.get(['/console', '/console/*path'], (req: Request, res: Response, next: NextFunction) => {
    if (isSessionPath(req.path) || req.path.startsWith(`${ASSETS}/`)) return next();
    securityHeaders(res, CONSOLE_CSP);
    // The shell changes with each build; what it shows comes from the API, with the session cookie.
    res.set('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  return router;
}

const isSessionPath = (path: string) =>
  path === CONSOLE_SESSION_PATH || path.startsWith(`${CONSOLE_SESSION_PATH}/`);

function notFound(res: Response): void {
  res.status(404).type('text/plain').set('Cache-Control', 'no-store').send('Not found\n');
}
