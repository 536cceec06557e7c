import { stepErrorToJson } from '../mapping/verification';
import type { NextFunction, Request, Response } from 'express';

/**
 * Collapses runs of slashes in the path (never in the query) before any router sees it. The spec writes the
 * base URL as `.../rest/v2/`, so integrations that append `/verification/...` to it call
 * `/rest/v2//verification/...`; a URL path with an empty segment names nothing else here, so it is taken as
 * the path without it rather than answered 404.
 */
export function collapseSlashes(req: Request, _res: Response, next: NextFunction): void {
  const url = req.url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.includes('//')) req.url = path.replace(/\/{2,}/g, '/') + (query === -1 ? '' : url.slice(query));
  next();
}

const NOT_DECODABLE = 'The path is not valid percent-encoded UTF-8';

/**
 * REST v2's answer to a path that does not percent-decode (`/verification/%E0%A4%A`), before any route tries
 * to decode it: 400 invalidRequest, in the VR shape on the step endpoints (whose 400s are VRs) and ER
 * elsewhere. (The error mapper also turns the router's own decoding error into 400, for the other routers.)
 */
export function refuseUndecodablePath(req: Request, res: Response, next: NextFunction): void {
  try {
    decodeURIComponent(req.path);
  } catch {
    const body = /\/verification\/.*\/step\//.test(req.path)
      ? stepErrorToJson(undefined, ['invalidRequest'], NOT_DECODABLE)
      : { errorIds: ['invalidRequest'], systemErrorMessage: NOT_DECODABLE };
    res.status(400).json(body);
    return;
  }
  next();
}
