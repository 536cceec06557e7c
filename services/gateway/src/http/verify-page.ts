import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { ProgramsClient } from '../clients/programs.client';
import type { EmbedOrigins } from './embed-origins';
import { sanitizeCustomCss } from './custom-css';
import { pageTexts, type PageTexts } from './page-locale';

const YEAR_S = 365 * 24 * 3600;
const PROGRAM_ID = /^[0-9a-f]{24}$/;

interface Manifest {
  script: string;
  stylesheet: string;
  embed: string;
}

/**
 * The page's policy: its own scripts and styles only (no inline script or style element, no eval), calls to
 * Eligo only, and framed by nobody unless the program lists the embedding origin.
 */
export function verifyPageCsp(frameAncestors: readonly string[]): string {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
  return (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    `form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors ${ancestors}`
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a script element: "<" escaped, so that no value can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function page(manifest: Manifest, programId: string, intl: PageTexts): string {
  const title = intl.messages['page.title'] ?? 'Verify your eligibility';
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(intl.locale)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="stylesheet" href="/verify/assets/${manifest.stylesheet}">`,
    `<link rel="stylesheet" href="/verify/${programId}/theme.css">`,
    // Data, not script (CSP does not run it): the program's texts, since its theme endpoint needs a token.
    `<script type="application/json" id="eligo-bootstrap">${scriptJson({ programId, intl })}</script>`,
    `<script src="/verify/assets/${manifest.script}" defer></script>`,
    '</head>',
    '<body>',
    '<main id="eligo-verify"></main>',
    '<noscript><p>This page needs JavaScript to verify your eligibility.</p></noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function notFoundPage(res: Response): void {
  res
    .status(404)
    .type('html')
    .send(
      '<!doctype html><html lang="en"><title>Not found</title><main><h1>This verification page does not exist.</h1></main></html>\n',
    );
}

function securityHeaders(res: Response, csp: string): void {
  res.set({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    // The page's URL carries the verification id when resumed: it goes nowhere, not even to the redirect.
    'Referrer-Policy': 'no-referrer',
  });
}

/**
 * The hosted verification page (docs/api.md, "The hosted verification page"): GET /verify/{programId} is a
 * shell that loads the page's script and stylesheet (built by @eligo/web-verify, content-hashed, immutable)
 * and the program's sanitized customCss; /verify/embed.js is the merchant's embed script. Only the files of
 * the build manifest are served; nothing is looked up by the requested name.
 */
export function verifyPageRouter(options: {
  programs: ProgramsClient;
  origins: EmbedOrigins;
  logger: Logger;
}): Router {
  const manifestFile = require.resolve('@eligo/web-verify/dist/manifest.json');
  const dist = dirname(manifestFile);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const assets = new Map([
    [manifest.script, join(dist, 'assets', manifest.script)],
    [manifest.stylesheet, join(dist, 'assets', manifest.stylesheet)],
  ]);
  const embed = readFileSync(join(dist, manifest.embed));

  const theme = async (programId: string) => {
    try {
      // No account: the page is public, and the theme is what the page shows anyway.
      return (await options.programs.getTheme({ programId, accountId: '' })).theme;
    } catch (err) {
      if ((err as { code?: number }).code === GrpcStatus.NOT_FOUND) return null;
      throw err;
    }
  };

  const router = Router();
  router.get('/verify/embed.js', (_req, res) => {
    securityHeaders(res, "default-src 'none'");
    // Merchants' pages load it from their own origin: a short cache, since its name never changes.
    res.set({ 'Cache-Control': 'public, max-age=300', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    res.type('text/javascript; charset=utf-8').send(embed);
  });
  router.get('/verify/assets/:name', (req, res, next) => {
    const file = assets.get(String(req.params.name));
    if (!file) return next();
    securityHeaders(res, "default-src 'none'");
    res.sendFile(file, { maxAge: YEAR_S * 1000, immutable: true }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });
  router.get('/verify/:programId/theme.css', async (req, res, next) => {
    const programId = String(req.params.programId);
    if (!PROGRAM_ID.test(programId)) return next();
    try {
      const found = await theme(programId);
      if (found === null) return next();
      securityHeaders(res, "default-src 'none'");
      res.set('Cache-Control', 'public, max-age=60').type('text/css; charset=utf-8');
      res.send(sanitizeCustomCss(found?.customCss ?? ''));
    } catch (err) {
      next(err);
    }
  });
  router.get(['/verify/:programId', '/verify/:programId/'], async (req, res, next) => {
    const programId = String(req.params.programId);
    if (!PROGRAM_ID.test(programId)) return notFoundPage(res);
    try {
      const [found, ancestors] = await Promise.all([theme(programId), options.origins.ofProgram(programId)]);
      if (found === null || ancestors === null) return notFoundPage(res);
      securityHeaders(res, verifyPageCsp(ancestors));
      res.set('Cache-Control', 'no-cache');
      const intl = pageTexts(
        {
          locale: found?.intl?.locale ?? '',
          messages: found?.intl?.messages ?? {},
          errorId: found?.intl?.errorId ?? {},
          locales: found?.intl?.locales ?? {},
        },
        typeof req.query.locale === 'string' ? req.query.locale : undefined,
        req.get('accept-language'),
      );
      // The texts follow the browser's languages.
      res.vary('Accept-Language');
      res.type('html').send(page(manifest, programId, intl));
    } catch (err) {
      next(err);
    }
  });
  router.use('/verify', (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') return notFoundPage(res);
    next();
  });
  return router;
}
