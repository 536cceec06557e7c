import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { StaffAuthentication } from '../auth/authenticator';
import { OIDC_CALLBACK_PATH, OIDC_START_PATH, OIDC_TRANSACTION_SECONDS, type StaffOidc } from '../staff/oidc';
import { cookieValue, sessionCookie, transactionCookie } from '../staff/session-secrets';
import { SIGN_IN_ACTION } from './console-session';

const TX_COOKIE = 'eligo_oidc';
const TX_SHAPE = /^[A-Za-z0-9_-]{1,1000}$/;
/** Where the browser goes after the callback: the console, told when the sign-in failed. */
const CONSOLE = '/console';
const FAILED = '/console?signIn=failed';

export interface ConsoleOidcOptions {
  staff: StaffAuthentication;
  oidc: StaffOidc;
  publicBaseUrl: string;
  logger: Logger;
}

/**
 * Staff sign-in with the operator's OpenID provider (docs/operations.md, "Staff sign-in with OIDC"):
 * - `GET /console/session/oidc` sends the browser to the provider (PKCE, state, nonce), keeping them in an
 *   HttpOnly cookie of this path for 10 minutes (SameSite=Lax: it must come back with the provider's redirect,
 *   a navigation from another site);
 * - `GET /console/session/oidc/callback` checks the provider's answer, finds the staff member of the verified
 *   email, and opens a console session as a password sign-in does, then sends the browser to /console
 *   (`/console?signIn=failed` for any failure, the reason in the log and the audit log only).
 * Starting one counts in the sign-in limit per client address; every outcome is in the audit log.
 */
export function consoleOidcRouter({ staff, oidc, publicBaseUrl, logger }: ConsoleOidcOptions): Router {
  const router = Router();
  const secure = new URL(publicBaseUrl).protocol === 'https:';
  const txCookie = (value: string, maxAge: number) =>
    transactionCookie(TX_COOKIE, value, { path: OIDC_START_PATH, maxAgeSeconds: maxAge, secure });
  const audit = (actorId: string | null, status: number) =>
    staff.access.record({
      actor_kind: 'staff',
      actor_id: actorId,
      action: SIGN_IN_ACTION,
      method: 'GET',
      route: OIDC_CALLBACK_PATH,
      targets: {},
      status,
    });

  router.use([OIDC_START_PATH, OIDC_CALLBACK_PATH], (_req, res, next) => {
    res.locals.route = OIDC_START_PATH;
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    next();
  });

  router.get(OIDC_START_PATH, staff.signInLimit, async (_req: Request, res: Response) => {
    try {
      const { url, transaction } = await oidc.begin();
      res.set('Set-Cookie', txCookie(transaction, OIDC_TRANSACTION_SECONDS)).redirect(302, url);
    } catch (err) {
      logger.warn({ err }, 'staff OIDC: the provider could not be reached for a sign-in');
      res.status(503).type('text').send('The sign-in provider cannot be reached. Try again later.');
    }
  });

  // Not limited: only a browser holding the transaction (its state, 256 random bits) gets past the checks.
  router.get(OIDC_CALLBACK_PATH, async (req: Request, res: Response) => {
    // The transaction is used once, whatever happens next.
    res.set('Set-Cookie', txCookie('', 0));
    const fail = async (reason: string, staffId: string | null) => {
      logger.info({ reason }, 'staff OIDC sign-in refused');
      await audit(staffId, 401);
      res.redirect(303, FAILED);
    };
    let outcome;
    try {
      const transaction = cookieValue(req.headers.cookie, TX_COOKIE, TX_SHAPE);
      outcome = await oidc.finish(new URL(req.originalUrl, publicBaseUrl), transaction);
    } catch (err) {
      logger.warn({ err }, 'staff OIDC: the provider could not be reached for a callback');
      return fail('the provider could not be reached', null);
    }
    if (!outcome.ok) return fail(outcome.reason, null);
    const signedIn = await staff.access.signInVerified(outcome.email);
    if (!signedIn.ok) return fail('no enabled staff member has this email', signedIn.staffId ?? null);
    await audit(signedIn.principal.staffId, 201);
    res
      .append(
        'Set-Cookie',
        sessionCookie(signedIn.sessionId, staff.access.settings.sessionLifetimeMs, secure),
      )
      .redirect(303, CONSOLE);
  });
  return router;
}
