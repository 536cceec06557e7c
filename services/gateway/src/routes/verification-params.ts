import { derivedRequestId } from '../idempotency/middleware';
import { randomUUID } from 'node:crypto';
import { notFound } from '@eligo/runtime';
import { isId } from '@eligo/vocabulary';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { BodyCheck } from '../endpoints/body-check';
import { httpErrorOf, invalidRequest } from '../errors';
import { stepErrorToJson } from '../mapping/verification';
import { CONTROL_CHARACTER_CLASS } from '../openapi/schemas/text';
import { hexIdParam, verificationNotFound } from '../validation/path-ids';

/** Unicode control characters (C0, DEL, C1) and the line/paragraph separators: never in a tracking id. */
const CONTROL_CHARACTERS = new RegExp(`[${CONTROL_CHARACTER_CLASS}]`);

/** The longest tracking id a verification can have (StartVerificationRequest.tracking_id). */
export const MAX_TRACKING_ID_LENGTH = 256;

/**
 * Words that sit where a verificationId would in paths of other endpoints (/verification/program/...,
 * /verification/reverify, /verification/marketplace). A route with :verificationId passes such a request on
 * instead of answering 404 noVerification, so that those endpoints stay free for the routers that own them.
 */
const RESERVED = new Set(['program', 'reverify', 'marketplace']);

const skipReserved: RequestHandler = (req, _res, next) => {
  next(RESERVED.has(req.params.verificationId as string) ? 'route' : undefined);
};

/** :verificationId is 24 lowercase hex characters; any other value is 404 noVerification, like an unknown one. */
export const verificationIdParam: RequestHandler[] = [
  skipReserved,
  hexIdParam('verificationId', verificationNotFound),
];

/** The token endpoints authenticate before anything else is answered, reserved words aside. */
export function verificationIdAfter(auth: RequestHandler): RequestHandler[] {
  return [skipReserved, auth, hexIdParam('verificationId', verificationNotFound)];
}

/**
 * :trackingId is what a verification could have been started with; anything longer, or with a control
 * character (refused at the start), names nothing.
 */
export const trackingIdParam: RequestHandler = (req, _res, next) => {
  const value = req.params.trackingId;
  const ok =
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_TRACKING_ID_LENGTH &&
    !CONTROL_CHARACTERS.test(value);
  next(ok ? undefined : notFound('No verification with this tracking id', { errorIds: ['noVerification'] }));
};

/**
 * The request id of a call to the verification service, which answers a repeated id what it answered first:
 * fresh per REST request (the runtime client may resend a call whose reply was lost), or derived from the
 * client's Idempotency-Key together with its credential and the whole request (idempotency/middleware.ts),
 * never the client's key itself, which would let a caller choose ids that find another caller's verification.
 */
export const requestIdOf = (req: Request): string => derivedRequestId(req) ?? randomUUID();

export const verificationIdOf = (req: Request): string => req.params.verificationId as string;

/**
 * Error handler of the step endpoints: the spec answers their invalid requests with a 400 VR (currentStep
 * error) rather than an ER, whether the gateway or the service refused the request. Every other error (404,
 * 429, 5xx, 413) goes on to the one error mapper.
 */
export function stepErrors(err: unknown, req: Request, res: Response, next: NextFunction): void {
  const mapped = httpErrorOf(err);
  if (mapped.status !== 400 || !('errorIds' in mapped.body) || res.headersSent) {
    next(err);
    return;
  }
  const id = req.params.verificationId;
  res
    .status(400)
    .json(
      stepErrorToJson(
        typeof id === 'string' && isId(id) ? id : undefined,
        mapped.body.errorIds,
        mapped.body.systemErrorMessage,
      ),
    );
}

/** A refusal of the request as REST v2 words it: 400 invalidRequest (ER, or the step error on the steps). */
export { invalidRequest };

/**
 * Middleware: a JSON body held to `check`, a definition's schema whose refusals have their own words (a
 * metadata map's, endpoints/verification-requests.ts); the checked value replaces req.body. Without a JSON
 * body (express.json leaves it undefined) the request is refused.
 */
export function checkedBody(check: (body: unknown) => BodyCheck<unknown>): RequestHandler {
  return (req, _res, next) => {
    if (req.body === undefined)
      return next(invalidRequest('body is required (Content-Type: application/json)'));
    const checked = check(req.body);
    if (!checked.ok) return next(invalidRequest(checked.problem));
    req.body = checked.value;
    next();
  };
}
