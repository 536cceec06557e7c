import { Router, type Request, type RequestHandler, type Response } from 'express';
import { passThrough } from '../idempotency/middleware';
import { accountOf, type AuthMiddlewares } from '../auth/middleware';
import type { ProgramsClient } from '../clients/programs.client';
import { present, programToJson, themeToJson } from '../mapping/program';
import { webhookNotificationsToProto } from '../mapping/webhook-notification';
import { hexIdParam, programNotFound } from '../validation/path-ids';
import { routeTable } from '../endpoints/route-table';
import {
  createVerificationLimit,
  createWebhook,
  deleteVerificationLimit,
  deleteWebhook,
  getProgramTheme,
  sendLink,
  type SendLinkBody,
  type VerificationLimitBody,
  type WebhookBody,
} from '../endpoints/program';

export interface ProgramRouteOptions {
  programs: ProgramsClient;
  auth: AuthMiddlewares;
  /** Send-link messages per program and recipient (http/rate-limits.ts), after the token and the body are checked. */
  sendLinkLimit?: RequestHandler;
}

/**
 * REST v2 program administration with an account token, as endpoints/program.ts defines it. Every call names
 * the caller's account: the service answers NOT_FOUND (404 noProgram) for a program of another account, so
 * no handler checks ownership itself.
 */
export function programRouter({ programs, auth, sendLinkLimit = passThrough }: ProgramRouteOptions): Router {
  const target = (req: Request, res: Response) => ({
    programId: req.params.programId as string,
    accountId: accountOf(res).accountId,
  });

  async function getTheme(req: Request, res: Response) {
    const { theme } = await programs.getTheme(target(req, res));
    res.json(themeToJson(present(theme, 'theme')));
  }

  async function createLimit(req: Request, res: Response) {
    const { quantity, days } = req.body as VerificationLimitBody;
    const { program } = await programs.createVerificationLimit({
      ...target(req, res),
      limit: { quantity, days },
    });
    res.json(programToJson(present(program, 'program')));
  }

  async function deleteLimit(req: Request, res: Response) {
    const { program } = await programs.deleteVerificationLimit(target(req, res));
    res.json(programToJson(present(program, 'program')));
  }

  async function setWebhook(req: Request, res: Response) {
    const { callbackUri, notifierEventTypes } = req.body as WebhookBody;
    const reply = await programs.createWebhook({
      ...target(req, res),
      callbackUri,
      notifications: webhookNotificationsToProto(notifierEventTypes),
    });
    // The signing secret is in this reply only: no cache may keep it.
    res
      .set('Cache-Control', 'no-store')
      .json(programToJson(present(reply.program, 'program'), reply.signingSecret));
  }

  // The spec's walkthrough sends {callbackUri} with the DELETE; it is accepted and has no effect.
  async function removeWebhook(req: Request, res: Response) {
    const { program } = await programs.deleteWebhook(target(req, res));
    res.json(programToJson(present(program, 'program')));
  }

  async function sendVerificationLink(req: Request, res: Response) {
    const body = req.body as SendLinkBody;
    await programs.sendLink({
      ...target(req, res),
      // The schema lets exactly one of the two through.
      recipient:
        body.email !== undefined
          ? { $case: 'email', email: body.email }
          : { $case: 'phoneNumber', phoneNumber: body.phoneNumber ?? '' },
      trackingId: body.trackingId ?? '',
    });
    res.status(204).end();
  }

  // Authentication first: without a valid token nothing, not even the shape of an id, is answered.
  const before = [auth.requireAccount, hexIdParam('programId', programNotFound)];
  return routeTable(Router(), [
    { endpoint: getProgramTheme, before, handler: getTheme },
    { endpoint: createVerificationLimit, before, handler: createLimit },
    { endpoint: deleteVerificationLimit, before, handler: deleteLimit },
    { endpoint: createWebhook, before, handler: setWebhook },
    { endpoint: deleteWebhook, before, handler: removeWebhook },
    { endpoint: sendLink, before, after: [sendLinkLimit], handler: sendVerificationLink },
  ]);
}
