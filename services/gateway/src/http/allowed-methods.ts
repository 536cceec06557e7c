import type { NextFunction, Request, RequestHandler, Response } from 'express';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A path item of the document, as the gateway sees its paths. */
export interface PathTemplate {
  pattern: RegExp;
  /** Segments that are not parameters: where two templates match, the one with more of them is the resource. */
  literals: number;
  /** The path item's operations by lower-case method, as the document has them. */
  item: Record<string, unknown>;
}

/**
 * The document's path items with the paths the gateway sees: a path item's servers (admin API, OAuth,
 * uploads) or the document's give its prefix, taken relative to the public base URL (a deployment behind a
 * path prefix still sees /rest/v2/... here).
 */
export function pathTemplates(document: Record<string, unknown>, publicBaseUrl: string): PathTemplate[] {
  const base = new URL(publicBaseUrl).pathname.replace(/\/$/, '');
  const prefixOf = (servers: unknown): string => {
    const url = (servers as { url: string }[] | undefined)?.[0]?.url ?? '';
    const path = new URL(url, publicBaseUrl).pathname.replace(/\/$/, '');
    return path.startsWith(base) ? path.slice(base.length) : path;
  };
  const defaultPrefix = prefixOf(document.servers);
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).map(([key, item]) => {
    const full = (item.servers ? prefixOf(item.servers) : defaultPrefix) + key;
    const segments = full.split('/').filter(Boolean);
    const source = segments
      .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return {
      pattern: new RegExp(`^/${source}/?$`),
      literals: segments.filter((s) => !s.startsWith('{')).length,
      item,
    };
  });
}

/** The templates matching `path`, most literal first only (/report/fields is not /report/{reportId}). */
export function matchingTemplates(templates: PathTemplate[], path: string): PathTemplate[] {
  const matches = templates.filter((t) => t.pattern.test(path));
  if (matches.length === 0) return [];
  const best = Math.max(...matches.map((t) => t.literals));
  return matches.filter((t) => t.literals === best);
}

/** The methods of each resource as the OpenAPI document declares them, by the path the gateway sees. */
export interface AllowedMethods {
  /** The methods the resource at `path` supports (HEAD with GET, and OPTIONS), or undefined for no resource. */
  of(path: string): string[] | undefined;
}

/** Builds the table from the served document, so that 405 and OPTIONS answers list what it says, nothing else. */
export function allowedMethods(document: Record<string, unknown>, publicBaseUrl: string): AllowedMethods {
  const templates = pathTemplates(document, publicBaseUrl);
  return {
    of(path) {
      const matches = matchingTemplates(templates, path);
      if (matches.length === 0) return undefined;
      const methods = new Set(
        matches.flatMap((t) => METHODS.filter((m) => m in t.item).map((m) => m.toUpperCase())),
      );
      if (methods.has('GET')) methods.add('HEAD');
      methods.add('OPTIONS');
      return [...methods].sort();
    },
  };
}

/** OPTIONS on a resource: 204 with the methods it supports (no CORS here: the API is not called from pages). */
export function answerOptions(table: AllowedMethods): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'OPTIONS') return next();
    const allowed = table.of(req.baseUrl + req.path);
    if (!allowed) return next();
    res.set('Allow', allowed.join(', ')).status(204).end();
  };
}

/**
 * After every route of a router: a request that reached no route but names a resource used a method the
 * resource does not support, which HTTP answers 405 with `Allow`, not 404.
 */
export function methodNotAllowed(table: AllowedMethods): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = table.of(req.baseUrl + req.path);
    // A method the resource has but no route took (a reserved word where an id goes: POST
    // /verification/marketplace/expire) is no method problem: the path names nothing (404).
    if (!allowed || allowed.includes(req.method)) return next();
    res
      .set('Allow', allowed.join(', '))
      .status(405)
      .json({
        systemErrorMessage: `Method ${req.method} is not allowed here; allowed: ${allowed.join(', ')}`,
      });
  };
}
