import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AllowedMethods } from './allowed-methods';
import type { EmbedOrigins } from './embed-origins';

/** Request headers a browser form may send to the public endpoints. */
const ALLOWED_HEADERS = ['content-type', 'idempotency-key', 'x-request-id'];
/** Answer headers a browser form may read. */
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, Idempotency-Replayed';
const PREFLIGHT_MAX_AGE_S = 600;

const ID = '[0-9a-f]{24}';
/** Public paths (no token) whose program is in the path. */
const PROGRAM_IN_PATH = [
  new RegExp(`^/program/(${ID})/organization$`),
  new RegExp(`^/verification/program/(${ID})/step/[A-Za-z]+$`),
];
/** Public paths of one verification: its state and its steps (document upload included). */
const VERIFICATION_IN_PATH = new RegExp(`^/verification/(${ID})(/step/[A-Za-z]+(/[A-Za-z0-9_-]+)?)?$`);
/** Public paths whose program is in the JSON body. */
const PROGRAM_IN_BODY = new Set([
  '/verification',
  '/verification/marketplace',
  '/organization/addSchool',
  '/organization/addSchool/search/domain',
  '/organization/addSchool/search/name',
]);

type Where = { programId: string } | { verificationId: string } | 'body' | undefined;

function whereIsTheProgram(path: string): Where {
  for (const pattern of PROGRAM_IN_PATH) {
    const m = pattern.exec(path);
    if (m) return { programId: m[1]! };
  }
  const v = VERIFICATION_IN_PATH.exec(path);
  if (v) return { verificationId: v[1]! };
  return PROGRAM_IN_BODY.has(path) ? 'body' : undefined;
}

function allow(res: Response, origin: string): void {
  res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
}

/**
 * CORS for the public REST v2 endpoints (docs/api.md, "The hosted verification page"): a browser on an origin
 * the program lists in `embedOrigins` may call them; no credentials (the public endpoints take none) and never
 * the token endpoints. The program is found from the path, or from the verification in the path; where it is
 * in the body (starting a verification, add-school), the preflight cannot know it, so it admits any origin and
 * the answer itself carries Access-Control-Allow-Origin only for a listed one: the browser then withholds the
 * answer from any other page (the call itself is public and rate-limited anyway).
 */
export function corsForPublicEndpoints(options: {
  origins: EmbedOrigins;
  methods: AllowedMethods;
  logger: Logger;
}): RequestHandler {
  const listed = async (where: Where, origin: string): Promise<boolean> => {
    if (where === undefined || where === 'body') return false;
    const programId =
      'programId' in where
        ? where.programId
        : await options.origins.programOfVerification(where.verificationId);
    if (!programId) return false;
    return (await options.origins.ofProgram(programId))?.includes(origin) === true;
  };

  /**
   * The program is in the body, parsed later by the route: the answer's end waits for the program's origins
   * (cached), so that every answer of the route, a refusal of the body included, is shared with a listed origin.
   */
  const answerForTheBodysProgram = (req: Request, res: Response, origin: string) => {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const programId = (req.body as { programId?: unknown } | undefined)?.programId;
      const decided =
        typeof programId === 'string' && /^[0-9a-f]{24}$/.test(programId) && !res.headersSent
          ? options.origins.ofProgram(programId).then(
              (origins) => void (origins?.includes(origin) && allow(res, origin)),
              (err: unknown) => options.logger.warn({ err }, 'CORS: embedding origins unavailable'),
            )
          : Promise.resolve();
      void decided.then(() => end(...args));
      return res;
    }) as Response['end'];
  };

  const before = async (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    const where = whereIsTheProgram(req.path);
    if (!origin || where === undefined) return next();
    res.vary('Origin');
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    if (where === 'body' && !preflight) {
      answerForTheBodysProgram(req, res, origin);
      return next();
    }
    try {
      const ok = where === 'body' || (await listed(where, origin));
      if (!preflight) {
        if (ok) allow(res, origin);
        return next();
      }
      const methods = options.methods.of(req.baseUrl + req.path) ?? [];
      const asked = (req.get('access-control-request-headers') ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      if (!ok || asked.some((h) => !ALLOWED_HEADERS.includes(h))) return res.status(204).end();
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': methods.filter((m) => m !== 'OPTIONS').join(', '),
        'Access-Control-Allow-Headers': ALLOWED_HEADERS.join(', '),
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
      });
      return res.status(204).end();
    } catch (err) {
      // The lookup failed (programs unreachable): no CORS headers; the browser keeps the answer from the page.
      options.logger.warn({ err }, 'CORS: embedding origins unavailable');
      return preflight ? res.status(204).end() : next();
    }
  };

  return before;
}
