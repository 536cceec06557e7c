import { Router, type NextFunction, type Request, type Response } from 'express';
import { decodeGrpcError } from '@eligo/runtime';
import type { ProgramsClient } from '../../clients/programs.client';
import {
  adminGetRewardCodePoolLevel,
  adminListPrograms,
  adminRotateWebhookSecret,
  type ProgramListQuery,
} from '../../endpoints/admin-program-lists';
import { routeTable } from '../../endpoints/route-table';
import { RestError } from '../../errors';
import {
  modeFilterToProto,
  pageToProto,
  poolLevelToJson,
  programSummaryPageToJson,
  secretRotatedToJson,
} from '../../mapping/admin-lists';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminProgramListRouteOptions {
  programs: ProgramsClient;
}

/**
 * The staff console's program list, pool level and webhook secret rotation, as endpoints/admin-program-lists.ts
 * defines them. The operator acts without an account, so account_id stays empty where it scopes a program.
 */
export function adminProgramListRouter({ programs }: AdminProgramListRouteOptions): Router {
  async function list(_req: Request, res: Response) {
    const query = res.locals.query as ProgramListQuery;
    const reply = await programs.listPrograms({
      ...pageToProto(query),
      accountId: query.accountId ?? '',
      segment: query.segment ?? '',
      mode: modeFilterToProto(query.mode),
      nameContains: query.name ?? '',
    });
    res.json(programSummaryPageToJson(reply));
  }

  async function poolLevel(req: Request, res: Response) {
    const reply = await programs.getRewardCodePoolLevel({
      programId: req.params.programId as string,
      accountId: '',
    });
    res.json(poolLevelToJson(reply));
  }

  async function rotateSecret(req: Request, res: Response) {
    const reply = await programs.rotateWebhookSigningSecret({
      programId: req.params.programId as string,
      accountId: '',
    });
    // The new secret is in this reply only: no cache may keep it.
    res.set('Cache-Control', 'no-store').json(secretRotatedToJson(reply));
  }

  const programId = [hexIdParam('programId', programNotFound)];
  const router = routeTable(Router(), [
    { endpoint: adminListPrograms, handler: list },
    { endpoint: adminGetRewardCodePoolLevel, before: programId, handler: poolLevel },
    {
      endpoint: adminRotateWebhookSecret,
      before: programId,
      handler: rotateSecret,
      errors: [noWebhookConflict],
    },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

/**
 * The service refuses a rotation without a webhook as FAILED_PRECONDITION (reason noWebhook), which the
 * status table answers 400 by default; the request was well formed, the program's state refuses it: 409 ER
 * with the reason as its errorId, as the document states.
 */
function noWebhookConflict(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  if (decodeGrpcError(err).reason !== 'noWebhook') return next(err);
  next(new RestError(409, 'The program has no webhook; create one first', 'ER', ['noWebhook']));
}
