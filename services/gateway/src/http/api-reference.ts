import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { apiReferencePage, INITIALIZER, STYLESHEET } from './api-reference.page';

/**
 * What every docs response carries. Scripts, styles and requests are same-origin only; swagger-ui's stylesheet
 * draws its icons with data: images, which img-src allows (they run no code).
 */
export const API_REFERENCE_CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; " +
  "frame-ancestors 'none'";

const ALLOW = 'GET, HEAD, OPTIONS';
const YEAR_S = 365 * 24 * 3600;

type Asset = { file: string } | { type: string; body: string };

/**
 * The API reference: GET /docs/ is a page of our own that renders /openapi.json with swagger-ui (swagger-ui-dist,
 * served from node_modules, no CDN); /docs redirects there so that the page's relative URLs resolve. The assets
 * live under /docs/assets/{tag}/, where the tag changes with swagger-ui's version and our files, so they cache
 * for a year. Only the files listed here are served (nothing is looked up by the requested name). No token: the
 * document is public. Not part of the OpenAPI document, which describes the API and not its pages.
 */
export function apiReferenceRouter(): Router {
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const { version } = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8')) as { version: string };
  const assets = new Map<string, Asset>([
    ['swagger-ui-bundle.js', { file: join(dist, 'swagger-ui-bundle.js') }],
    ['swagger-ui.css', { file: join(dist, 'swagger-ui.css') }],
    ['favicon-32x32.png', { file: join(dist, 'favicon-32x32.png') }],
    ['api-reference.js', { type: 'text/javascript; charset=utf-8', body: INITIALIZER }],
    ['api-reference.css', { type: 'text/css; charset=utf-8', body: STYLESHEET }],
  ]);
  const tag = `${version}-${createHash('sha256').update(INITIALIZER).update(STYLESHEET).digest('hex').slice(0, 8)}`;
  const page = apiReferencePage(`assets/${tag}`);
  const assetOf = (req: Request): Asset | undefined =>
    req.params.tag === tag ? assets.get(String(req.params.name)) : undefined;

  const router = Router();
  router.get('/docs', (req, res) => {
    securityHeaders(res);
    // /docs/ (express routes it here too): the page. /docs: the page's directory, where its relative URLs hold.
    if (!req.path.endsWith('/')) return res.redirect(301, 'docs/');
    res.set('Cache-Control', 'no-cache').type('html').send(page);
  });
  router.get('/docs/assets/:tag/:name', (req, res, next) => {
    const asset = assetOf(req);
    if (!asset) return next();
    securityHeaders(res);
    if ('file' in asset) {
      res.sendFile(asset.file, { maxAge: YEAR_S * 1000, immutable: true }, (err) => {
        if (err && !res.headersSent) next(err);
      });
      return;
    }
    res.set('Cache-Control', `public, max-age=${YEAR_S}, immutable`).type(asset.type).send(asset.body);
  });
  const otherMethods = (req: Request, res: Response, next: NextFunction) => {
    if (req.params.name !== undefined && !assetOf(req)) return next();
    res.set('Allow', ALLOW);
    if (req.method === 'OPTIONS') return res.status(204).end();
    res
      .status(405)
      .json({ systemErrorMessage: `Method ${req.method} is not allowed here; allowed: ${ALLOW}` });
  };
  router.all(['/docs', '/docs/assets/:tag/:name'], otherMethods);
  return router;
}

function securityHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': API_REFERENCE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
}
