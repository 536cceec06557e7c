import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Authenticator, StaffAuthentication } from '../auth/authenticator';
import { CSRF_HEADER } from '../auth/staff-guard';
import { checkBody } from '../endpoints/body-check';
import { errorMiddleware } from '../errors';
import { MAX_PASSWORD_LENGTH } from '../staff/password';
import {
  clearedSessionCookie,
  csrfMatches,
  sessionCookie,
  sessionIdFromCookies,
} from '../staff/session-secrets';

/** Where the console's session lives: outside /rest, a page of the console's own origin calls it. */
export const CONSOLE_SESSION_PATH = '/console/session';
/** The audit log's actions of a sign-in and a sign-out (the admin API's are operationIds). */
export const SIGN_IN_ACTION = 'createConsoleSession';
export const SIGN_OUT_ACTION = 'deleteConsoleSession';

/** The one answer to any sign-in that does not succeed: no word on which part was wrong, or on a lock. */
export const BAD_CREDENTIALS = 'The email or the password is wrong';

const SignInRequest = z.strictObject({
  email: z.string().max(254),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export interface ConsoleSessionOptions {
  authenticator: Authenticator;
  /** ELIGO_PUBLIC_BASE_URL: the cookie is Secure when it is https. */
  publicBaseUrl: string;
  logger: Logger;
}

/**
 * The console's staff session (docs/operations.md, "Sessions, cookies and CSRF"), not an API of /rest:
 * - `POST /console/session` {email, password} (application/json): 201 {staffId, name, role, csrfToken} and
 *   the session cookie (HttpOnly, SameSite=Strict, Path=/, Secure over https); any failure is 401 with one
 *   message, whether the email is unknown, the password wrong, the account locked or disabled; sign-ins are
 *   limited per client address (429);
 * - `GET /console/session`: the member of the session and its csrfToken again (after a reload), or 401;
 * - `DELETE /console/session`: ends the session (with its X-CSRF-Token) and clears the cookie, 204.
 * Sign-ins, failed ones included (without the email), and sign-outs are written to the audit log.
 * Mounted at the root; a gateway that keeps no staff leaves the path to the next routers (404).
 */
export function consoleSessionRouter({
  authenticator,
  publicBaseUrl,
  logger,
}: ConsoleSessionOptions): Router {
  const router = Router();
  const staff = authenticator.staff;
  if (!staff) return router;
  const { access } = staff;
  const secure = new URL(publicBaseUrl).protocol === 'https:';
  const json = express.json({ limit: '4kb', strict: true, type: 'application/json' });
  const audit = (action: string, method: string, actorId: string | null, status: number) =>
    access.record({
      actor_kind: 'staff',
      actor_id: actorId,
      action,
      method,
      route: CONSOLE_SESSION_PATH,
      targets: {},
      status,
    });

  router.use(CONSOLE_SESSION_PATH, (_req, res, next) => {
    res.locals.route = CONSOLE_SESSION_PATH;
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post(CONSOLE_SESSION_PATH, requireJson, staff.signInLimit, json, async (req, res) => {
    const checked = checkBody(SignInRequest, req.body);
    if (!checked.ok) {
      res.status(400).json({ errorIds: ['invalidRequest'], systemErrorMessage: checked.problem });
      return;
    }
    const outcome = await access.signIn(checked.value.email, checked.value.password);
    if (!outcome.ok) {
      await audit(SIGN_IN_ACTION, 'POST', outcome.staffId ?? null, 401);
      res.status(401).json({ errorIds: ['invalidCredentials'], systemErrorMessage: BAD_CREDENTIALS });
      return;
    }
    const { principal } = outcome;
    await audit(SIGN_IN_ACTION, 'POST', principal.staffId, 201);
    res
      .status(201)
      .set('Set-Cookie', sessionCookie(outcome.sessionId, access.settings.sessionLifetimeMs, secure))
      .json({
        staffId: principal.staffId,
        name: outcome.name,
        role: principal.role,
        csrfToken: principal.csrfToken,
      });
  });

  router.get(CONSOLE_SESSION_PATH, async (req, res) => {
    const found = await current(staff, req);
    if (!found) {
      res.status(401).json({ systemErrorMessage: 'No staff session: sign in with POST /console/session' });
      return;
    }
    const user = await access.getUser(found.principal.staffId);
    res.json({
      staffId: user.staffId,
      name: user.name,
      role: found.principal.role,
      csrfToken: found.principal.csrfToken,
    });
  });

  router.delete(CONSOLE_SESSION_PATH, async (req, res) => {
    const found = await current(staff, req);
    if (found) {
      if (!csrfMatches(found.principal.csrfToken, req.get(CSRF_HEADER))) {
        await audit(SIGN_OUT_ACTION, 'DELETE', found.principal.staffId, 403);
        res.status(403).json({
          errorIds: ['invalidRequest'],
          systemErrorMessage: `Missing or wrong ${CSRF_HEADER} header: send the csrfToken of the session`,
        });
        return;
      }
      await access.signOut(found.sessionId);
      await audit(SIGN_OUT_ACTION, 'DELETE', found.principal.staffId, 204);
    }
    // Without a live session too: whatever cookie the browser holds goes.
    res.status(204).set('Set-Cookie', clearedSessionCookie(secure)).end();
  });

  router.options(CONSOLE_SESSION_PATH, (_req, res) => void res.status(204).set('Allow', ALLOW).end());
  router.all(CONSOLE_SESSION_PATH, (req, res) => {
    res
      .status(405)
      .set('Allow', ALLOW)
      .json({
        systemErrorMessage: `${req.method} is not allowed on ${CONSOLE_SESSION_PATH} (allowed: ${ALLOW})`,
      });
  });
  router.use(CONSOLE_SESSION_PATH, errorMiddleware(logger));
  return router;
}

const ALLOW = 'GET, HEAD, POST, DELETE';

/** A sign-in is JSON: a form another site could post is not (nor can it read the answer). */
function requireJson(req: Request, res: Response, next: NextFunction): void {
  if (req.is('application/json')) return next();
  res
    .status(415)
    .json({ errorIds: ['invalidRequest'], systemErrorMessage: 'Content-Type must be application/json' });
}

async function current(staff: StaffAuthentication, req: Request) {
  const sessionId = sessionIdFromCookies(req.headers.cookie);
  if (sessionId === undefined) return undefined;
  const principal = await staff.access.session(sessionId);
  return principal ? { sessionId, principal } : undefined;
}
