import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import type { SubjectType } from '@eligo/vocabulary';
import type { AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import type { EndpointDefinition } from '../endpoints/define';
import { routeTable, type Route } from '../endpoints/route-table';
import { MAX_JWS_BYTES } from '../endpoints/verification-fields';
import { MarketplaceTokenRequest, tokenOf } from '../endpoints/verification-requests';
import { checkStepBody } from '../endpoints/verification-step-check';
import {
  cancelEmailLoop,
  cancelSso,
  resendEmailToken,
  submitEmailToken,
  type EmailTokenBody,
  JOSE,
  JOSE_SUBJECT_TYPE,
  JoseSubject,
  personalInfoSteps,
  skipSocialSecurityNumber,
  startSso,
  submitGenericPersonalInfo,
  submitMarketplaceToken,
  submitMilitaryStatus,
  submitSocialSecurityNumber,
  type MilitaryStatusBody,
  type SocialSecurityNumberBody,
  type StartAndSubmitQuery,
} from '../endpoints/verification-steps';
import { GENERIC_SUBJECT_TYPE, subjectSchemas, subjectToProto } from '../endpoints/verification-subjects';
import { replyToJson } from '../mapping/verification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { bearerChallenge, callerAccountIdOf } from './creation-caller';
import { SSO_CALLBACK_PATH, ssoStateCookie } from './sso-callback';
import {
  invalidRequest,
  requestIdOf,
  stepErrors,
  verificationIdOf,
  verificationIdParam,
} from './verification-params';

export interface VerificationStepRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  publicBaseUrl: string;
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

type Input = verificationV1.SubmitPersonalInfoRequest['input'];

/**
 * The steps a client submits to, as endpoints/verification-steps.ts defines them (the spec's personal-info
 * steps, military status, social security number, single sign-on). A reply with errorIds is a 400
 * (recoverable on a collect step, or the step ended in error); requests the gateway refuses get the same
 * 400 VR shape (stepErrors).
 */
export function verificationStepRouter(options: VerificationStepRouteOptions): Router {
  const { verification, publicBaseUrl } = options;
  // Mounted ahead of REST v2's JSON parser: each step reads its own body.
  const json = express.json({ limit: options.bodyLimit, strict: true });
  const jose = express.text({ type: JOSE, limit: MAX_JWS_BYTES });
  const idempotent = options.idempotent ?? passThrough;
  const send = (res: Response, reply: { verification?: verificationVerificationV1.VerificationResponse }) => {
    const body = replyToJson(reply, publicBaseUrl);
    res.status(body.errorIds.length > 0 ? 400 : 200).json(body);
  };

  async function chooseMilitaryStatus(req: Request, res: Response) {
    const { status } = req.body as MilitaryStatusBody;
    const requestId = requestIdOf(req);
    send(
      res,
      await verification.submitMilitaryStatus({ verificationId: verificationIdOf(req), status, requestId }),
    );
  }

  async function submitSsn(req: Request, res: Response) {
    const { socialSecurityNumber } = req.body as SocialSecurityNumberBody;
    send(
      res,
      await verification.submitSocialSecurityNumber({
        verificationId: verificationIdOf(req),
        socialSecurityNumber,
        requestId: requestIdOf(req),
      }),
    );
  }

  async function submitCode(req: Request, res: Response) {
    const { emailToken } = req.body as EmailTokenBody;
    send(
      res,
      await verification.submitEmailToken({
        verificationId: verificationIdOf(req),
        emailToken,
        requestId: requestIdOf(req),
      }),
    );
  }

  // A new code: 204, or 429 (within the cooldown, past the cap) through the error table.
  async function resendCode(req: Request, res: Response) {
    const reply = await verification.resendEmailToken({ verificationId: verificationIdOf(req) });
    const body = replyToJson(reply, publicBaseUrl);
    if (body.errorIds.length > 0) res.status(400).json(body);
    else res.status(204).end();
  }

  const skip = (step: string) =>
    async function skipStep(req: Request, res: Response) {
      const verificationId = verificationIdOf(req);
      send(res, await verification.skipStep({ verificationId, step, requestId: requestIdOf(req) }));
    };

  // Starts sign-on: the browser goes on to the organization's OpenID provider (the sign-on's state kept in a
  // cookie of this browser for the callback), or to its catalog login page.
  async function redirectToLogin(req: Request, res: Response) {
    const { loginUrl, state } = await verification.getSsoLoginUrl({
      verificationId: verificationIdOf(req),
      redirectUri: new URL(SSO_CALLBACK_PATH, publicBaseUrl).toString(),
    });
    if (state) res.set('Set-Cookie', ssoStateCookie(publicBaseUrl, state));
    // The login URL carries per-verification state: no cache may keep the redirect.
    res.set('Cache-Control', 'no-store').redirect(302, loginUrl);
  }

  const submitOnVerification = (endpoint: EndpointDefinition) =>
    async function submitPersonalInfo(req: Request, res: Response) {
      const reply = await verification.submitPersonalInfo({
        verificationId: verificationIdOf(req),
        programId: '',
        step: stepOf(endpoint),
        input: inputOf(res),
        trackingId: '',
        requestId: requestIdOf(req),
      });
      send(res, reply);
    };

  // One request: starts a verification of the program and submits its personal info.
  const startAndSubmit = (endpoint: EndpointDefinition) =>
    async function startAndSubmitPersonalInfo(req: Request, res: Response) {
      const { trackingId } = res.locals.query as StartAndSubmitQuery;
      const reply = await verification.submitPersonalInfo({
        verificationId: '',
        programId: req.params.programId as string,
        step: stepOf(endpoint),
        input: inputOf(res),
        trackingId: trackingId ?? '',
        requestId: requestIdOf(req),
        callerAccountId: callerAccountIdOf(res),
      });
      send(res, reply);
    };

  const onVerification = [...verificationIdParam, json, jose, idempotent];
  const personalInfo = (endpoint: EndpointDefinition, body: RequestHandler): Route => ({
    endpoint,
    before: [exactStepName(endpoint), ...onVerification],
    ownBodyCheck: true,
    after: [body],
    handler: submitOnVerification(endpoint),
    errors: [stepErrors],
  });

  return routeTable(Router(), [
    {
      endpoint: submitMilitaryStatus,
      before: [...verificationIdParam, json, idempotent],
      handler: chooseMilitaryStatus,
      errors: [stepErrors],
    },
    {
      endpoint: submitSocialSecurityNumber,
      before: [...verificationIdParam, json, idempotent],
      handler: submitSsn,
      errors: [stepErrors],
    },
    {
      endpoint: skipSocialSecurityNumber,
      before: verificationIdParam,
      handler: skip('collectSocialSecurityNumber'),
      errors: [stepErrors],
    },
    { endpoint: cancelSso, before: verificationIdParam, handler: skip('sso'), errors: [stepErrors] },
    {
      endpoint: submitEmailToken,
      before: [...verificationIdParam, json, idempotent],
      handler: submitCode,
      errors: [stepErrors],
    },
    { endpoint: resendEmailToken, before: verificationIdParam, handler: resendCode, errors: [stepErrors] },
    {
      endpoint: cancelEmailLoop,
      before: verificationIdParam,
      handler: skip('emailLoop'),
      errors: [stepErrors],
    },
    { endpoint: startSso, before: verificationIdParam, handler: redirectToLogin },
    ...personalInfoSteps.map(({ type, onVerification: endpoint }) =>
      personalInfo(endpoint, subjectBody(type)),
    ),
    personalInfo(submitGenericPersonalInfo, subjectBody(GENERIC_SUBJECT_TYPE)),
    personalInfo(submitMarketplaceToken, marketplaceTokenBody),
    ...personalInfoSteps.map(({ type, onProgram: endpoint }): Route => ({
      endpoint,
      before: [
        exactStepName(endpoint),
        hexIdParam('programId', programNotFound),
        json,
        jose,
        idempotent,
        options.auth.callerAccount,
      ],
      ownBodyCheck: true,
      after: [subjectBody(type)],
      handler: startAndSubmit(endpoint),
      errors: [stepErrors, bearerChallenge],
    })),
  ]);
}

/** The step of the RPC: the last segment of the definition's path (collectStudentPersonalInfo). */
const stepOf = (endpoint: EndpointDefinition) => endpoint.path.slice(endpoint.path.lastIndexOf('/') + 1);

/**
 * The step name as the spec spells it: Express matches a path in any case, the personal-info steps never
 * took another spelling (collectstudentPersonalInfo is left to other routes, and is 404).
 */
function exactStepName(endpoint: EndpointDefinition): RequestHandler {
  const step = stepOf(endpoint);
  return (req, _res, next) => next(req.path.replace(/\/+$/, '').endsWith(`/${step}`) ? undefined : 'route');
}

/**
 * The personal-info body, checked, as the RPC's input (res.locals.input). req.body stays as sent: the request
 * id of an Idempotency-Key is derived from it (idempotency/middleware.ts), and a token is read trimmed.
 */
const inputOf = (res: Response) => res.locals.input as Input;

/**
 * The subject body of a type: JSON held to its schema (endpoints/verification-subjects.ts), or for
 * DriverLicense a compact JWS sent as application/jose. Any other content type is 400 invalidRequest.
 */
function subjectBody(type: SubjectType): RequestHandler {
  const joseAllowed = type === JOSE_SUBJECT_TYPE;
  const types = joseAllowed ? `application/json or ${JOSE}` : 'application/json';
  return (req, res, next) => {
    if (req.body === undefined) return next(invalidRequest(`body is required (Content-Type: ${types})`));
    if (req.is(JOSE)) {
      if (!joseAllowed) return next(invalidRequest(`Content-Type must be ${types}`));
      const token = checkStepBody(JoseSubject, req.body);
      if (!token.ok) return next(invalidRequest(token.problem));
      res.locals.input = { $case: 'subjectToken', subjectToken: token.value } satisfies Input;
      return next();
    }
    const subject = checkStepBody(subjectSchemas[type], req.body);
    if (!subject.ok) return next(invalidRequest(subject.problem));
    res.locals.input = { $case: 'subject', subject: subjectToProto(subject.value) } satisfies Input;
    next();
  };
}

/** collectMarketplaceToken's body: {marketplaceToken} or {verificationToken}, as JSON only. */
const marketplaceTokenBody: RequestHandler = (req, res, next) => {
  if (req.body === undefined)
    return next(invalidRequest('body is required (Content-Type: application/json)'));
  if (req.is(JOSE)) return next(invalidRequest('Content-Type must be application/json'));
  const checked = checkStepBody(MarketplaceTokenRequest, req.body, { keysFirst: true });
  if (!checked.ok) return next(invalidRequest(checked.problem));
  res.locals.input = { $case: 'subjectToken', subjectToken: tokenOf(checked.value) } satisfies Input;
  next();
};
