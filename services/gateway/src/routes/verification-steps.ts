import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import type { AuthMiddlewares } from '../auth/middleware';
import type { VerificationClient } from '../clients/verification.client';
import { replyToJson } from '../mapping/verification';
import type { SchemaName } from '../openapi/components';
import { subjectSchemaName } from '../openapi/schemas/verification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { invalidRequest, type RequestValidator } from '../validation/request-validator';
import {
  compactJws,
  JOSE_SUBJECT_TYPE,
  marketplaceTokenFromJson,
  MAX_JWS_BYTES,
  personalInfoStep,
  subjectFromJson,
  type PersonalInfoStep,
  type StepShape,
} from '../validation/subject-body';
import { bearerChallenge, callerAccountIdOf } from './creation-caller';
import { optionalPlainText } from './plain-query';
import {
  MAX_TRACKING_ID_LENGTH,
  requestIdOf,
  stepErrors,
  verificationIdOf,
  verificationIdParam,
} from './verification-params';

export interface VerificationStepRouteOptions {
  verification: VerificationClient;
  auth: AuthMiddlewares;
  validator: RequestValidator;
  publicBaseUrl: string;
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

type Input = verificationV1.SubmitPersonalInfoRequest['input'];

const JOSE = 'application/jose';

/**
 * The steps a client submits to (the spec's personal-info steps, military status, social security number,
 * single sign-on). A reply with errorIds is a 400 (recoverable on a collect step, or the step ended in error);
 * requests the gateway refuses get the same 400 VR shape (stepErrors).
 */
export function verificationStepRouter(options: VerificationStepRouteOptions): Router {
  const { verification, validator, publicBaseUrl } = options;
  const router = Router();
  // Mounted ahead of REST v2's JSON parser: each step reads its own body.
  const json = express.json({ limit: options.bodyLimit, strict: true });
  const jose = express.text({ type: JOSE, limit: MAX_JWS_BYTES });
  const idempotent = options.idempotent ?? passThrough;
  const send = (res: Response, reply: { verification?: verificationVerificationV1.VerificationResponse }) => {
    const body = replyToJson(reply, publicBaseUrl);
    res.status(body.errorIds.length > 0 ? 400 : 200).json(body);
  };

  router.post(
    '/verification/:verificationId/step/collectMilitaryStatus',
    ...verificationIdParam,
    json,
    idempotent,
    validator.body('MilitaryStatusRequest'),
    async (req: Request, res: Response) => {
      const { status } = req.body as { status: string };
      send(
        res,
        await verification.submitMilitaryStatus({
          verificationId: verificationIdOf(req),
          status,
          requestId: requestIdOf(req),
        }),
      );
    },
    stepErrors,
  );

  router.post(
    '/verification/:verificationId/step/collectSocialSecurityNumber',
    ...verificationIdParam,
    json,
    idempotent,
    validator.body('SocialSecurityNumberRequest'),
    async (req: Request, res: Response) => {
      const { socialSecurityNumber } = req.body as { socialSecurityNumber: string };
      send(
        res,
        await verification.submitSocialSecurityNumber({
          verificationId: verificationIdOf(req),
          socialSecurityNumber,
          requestId: requestIdOf(req),
        }),
      );
    },
    stepErrors,
  );

  for (const step of ['collectSocialSecurityNumber', 'sso']) {
    router.delete(
      `/verification/:verificationId/step/${step}`,
      ...verificationIdParam,
      async (req: Request, res: Response) => {
        send(
          res,
          await verification.skipStep({
            verificationId: verificationIdOf(req),
            step,
            requestId: requestIdOf(req),
          }),
        );
      },
      stepErrors,
    );
  }

  // Starts sign-on: the browser goes on to the organization's login page.
  router.get('/verification/:verificationId/step/sso', ...verificationIdParam, async (req, res) => {
    const { loginUrl } = await verification.getSsoLoginUrl({ verificationId: verificationIdOf(req) });
    // The login URL may carry per-verification state: no cache may keep the redirect.
    res.set('Cache-Control', 'no-store').redirect(302, loginUrl);
  });

  router.post(
    '/verification/:verificationId/step/:step',
    personalInfoStepParam('verification'),
    ...verificationIdParam,
    json,
    jose,
    idempotent,
    async (req: Request, res: Response) => {
      const step = stepOf(res);
      const reply = await verification.submitPersonalInfo({
        verificationId: verificationIdOf(req),
        programId: '',
        step: step.step,
        input: inputOf(step, req, validator),
        trackingId: '',
        requestId: requestIdOf(req),
      });
      send(res, reply);
    },
    stepErrors,
  );

  // One request: starts a verification of the program and submits its personal info.
  router.post(
    '/verification/program/:programId/step/:step',
    personalInfoStepParam('program'),
    hexIdParam('programId', programNotFound),
    json,
    jose,
    idempotent,
    options.auth.callerAccount,
    async (req: Request, res: Response) => {
      const step = stepOf(res);
      const trackingId = optionalPlainText(req.query, 'trackingId', MAX_TRACKING_ID_LENGTH) ?? '';
      const reply = await verification.submitPersonalInfo({
        verificationId: '',
        programId: req.params.programId as string,
        step: step.step,
        input: inputOf(step, req, validator),
        trackingId,
        requestId: requestIdOf(req),
        callerAccountId: callerAccountIdOf(res),
      });
      send(res, reply);
    },
    stepErrors,
    bearerChallenge,
  );

  return router;
}

/** :step must be a personal-info step of this path shape; other steps are left to the routers that own them. */
function personalInfoStepParam(shape: StepShape): RequestHandler {
  return (req, res, next) => {
    const step = personalInfoStep(req.params.step as string, shape);
    if (!step) return next('route');
    res.locals.personalInfoStep = step;
    next();
  };
}

const stepOf = (res: Response) => res.locals.personalInfoStep as PersonalInfoStep;

/**
 * The body as the RPC's input: a JSON subject (or {marketplaceToken}), or for DriverLicense a compact JWS
 * sent as application/jose. Any other content type is 400 invalidRequest. A JSON subject is read first (its
 * keys and types, with their own messages), then held to its schema: no control character in any text.
 */
function inputOf(step: PersonalInfoStep, req: Request, validator: RequestValidator): Input {
  const joseAllowed = step.kind === 'subject' && step.type === JOSE_SUBJECT_TYPE;
  const types = joseAllowed ? `application/json or ${JOSE}` : 'application/json';
  if (req.body === undefined) throw invalidRequest(`body is required (Content-Type: ${types})`);
  if (req.is(JOSE)) {
    if (!joseAllowed) throw invalidRequest(`Content-Type must be ${types}`);
    return { $case: 'subjectToken', subjectToken: compactJws(req.body, 'body') };
  }
  if (step.kind === 'marketplace')
    return { $case: 'subjectToken', subjectToken: marketplaceTokenFromJson(req.body) };
  const subject = subjectFromJson(step.type, req.body);
  const problem = subjectProblem(validator, step.type, req.body as Record<string, unknown>);
  if (problem !== undefined) throw invalidRequest(problem);
  return { $case: 'subject', subject };
}

/**
 * What the subject's schema refuses, or undefined. Its metadata is held to its characters only: the service
 * answers a map too large with the step's recoverable errors (maxMetadataValuesExceeded, ...), as for
 * POST /verification.
 */
function subjectProblem(validator: RequestValidator, type: string, body: Record<string, unknown>) {
  const { metadata, ...fields } = body;
  const problem = validator.check(subjectSchemaName(type) as SchemaName, fields);
  if (problem !== undefined || metadata === undefined || metadata === null) return problem;
  return validator.check('VerificationMetadataText', metadata)?.replace(/^body/, 'body.metadata');
}
