import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { decodeGrpcError } from '@eligo/runtime';
import type { VerificationClient } from '../clients/verification.client';
import { cookieValue, transactionCookie } from '../staff/session-secrets';

/**
 * Single sign-on of a verification with the organization's OpenID provider (docs/api.md, "Single sign-on"):
 * GET /rest/v2/verification/{id}/step/sso sends the browser to the provider and keeps the sign-on's state in
 * an HttpOnly cookie of the callback's path; the provider returns the browser to GET /sso/callback, which
 * finishes the sign-on only when the state is the one this browser started (a sign-on link handed to someone
 * else finishes nothing), then sends the browser to the hosted page, which shows the verification's step.
 * Web navigation, not API: outside /rest and the OpenAPI document.
 */
export const SSO_CALLBACK_PATH = '/sso/callback';
const STATE_COOKIE = 'eligo_sso';
/** As long as a sign-on lasts in the organizations service. */
const STATE_SECONDS = 600;
/** The organizations service's state: base64url, 43 characters for 32 random bytes; a little room. */
const STATE_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const MAX_CALLBACK_URL = 8192;

/** The Set-Cookie of a started sign-on (value '' and Max-Age 0 clears it). */
export function ssoStateCookie(publicBaseUrl: string, state: string, maxAge = STATE_SECONDS): string {
  const secure = new URL(publicBaseUrl).protocol === 'https:';
  return transactionCookie(STATE_COOKIE, state, { path: SSO_CALLBACK_PATH, maxAgeSeconds: maxAge, secure });
}

export function ssoCallbackRouter(options: {
  verification: VerificationClient;
  publicBaseUrl: string;
  logger: Logger;
}): Router {
  const { verification, publicBaseUrl, logger } = options;
  const router = Router();
  const refuse = (res: Response, status: number, text: string) => res.status(status).type('text').send(text);
  router.get(SSO_CALLBACK_PATH, async (req: Request, res: Response) => {
    // The query holds the provider's code: no cache, and no Referer to the next page.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    // Used once, whatever happens next.
    res.set('Set-Cookie', ssoStateCookie(publicBaseUrl, '', 0));
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const started = cookieValue(req.headers.cookie, STATE_COOKIE, STATE_SHAPE);
    if (!state || !started || started !== state || req.originalUrl.length > MAX_CALLBACK_URL) {
      logger.info('verification sign-on callback refused: not the sign-on this browser started');
      return refuse(
        res,
        400,
        'This sign-in was not started in this browser, or it has lapsed. Go back and try again.',
      );
    }
    try {
      const callbackUrl = new URL(req.originalUrl, publicBaseUrl).toString();
      const reply = await verification.finishSso({ state, callbackUrl });
      const page = new URL(`/verify/${reply.programId}`, publicBaseUrl);
      page.searchParams.set('verificationId', reply.verification!.verificationId);
      res.redirect(303, page.toString());
    } catch (err) {
      const { codeName } = decodeGrpcError(err);
      if (codeName === 'NOT_FOUND')
        return refuse(res, 400, 'This sign-in has lapsed. Go back and try again.');
      logger.warn({ err }, 'verification sign-on callback failed');
      refuse(res, 503, 'The sign-in cannot be completed now. Try again later.');
    }
  });
  return router;
}
