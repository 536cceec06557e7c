import { Router, type Request, type Response } from 'express';
import type { ProgramsClient } from '../../clients/programs.client';
import { present, programCreateToProto, programPatchToProto, programToJson } from '../../mapping/program';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import { routeTable } from '../../endpoints/route-table';
import {
  adminAddRewardCodes,
  adminCreateProgram,
  adminGetProgram,
  adminUpdateProgram,
  type ProgramCreateBody,
  type ProgramPatchBody,
  type RewardCodesBody,
} from '../../endpoints/admin-programs';
import { adminInvalidRequest } from './invalid-request';

export interface AdminProgramRouteOptions {
  programs: ProgramsClient;
}

/**
 * Programs of any account, as endpoints/admin-programs.ts defines them (the operator token is checked by the
 * admin router). The operator acts without an account, so account_id stays empty in the requests that take
 * one.
 */
export function adminProgramRouter({ programs }: AdminProgramRouteOptions): Router {
  async function createProgram(req: Request, res: Response) {
    const reply = await programs.createProgram({
      program: programCreateToProto(req.body as ProgramCreateBody),
    });
    const json = programToJson(present(reply.program, 'program'), reply.webhookSigningSecret);
    res.status(201);
    // The signing secret is in this reply only: no cache may keep it.
    if (reply.webhookSigningSecret) res.set('Cache-Control', 'no-store');
    res.json(json);
  }

  async function getProgram(req: Request, res: Response) {
    const { program } = await programs.getProgram({
      programId: req.params.programId as string,
      accountId: '',
    });
    res.json(programToJson(present(program, 'program')));
  }

  async function updateProgram(req: Request, res: Response) {
    const { program, updateMask } = programPatchToProto(req.body as ProgramPatchBody);
    const reply = await programs.updateProgram({
      programId: req.params.programId as string,
      accountId: '',
      program,
      updateMask,
    });
    if (reply.webhookSigningSecret) res.set('Cache-Control', 'no-store');
    res.json(programToJson(present(reply.program, 'program'), reply.webhookSigningSecret));
  }

  async function addRewardCodes(req: Request, res: Response) {
    const { codes } = req.body as RewardCodesBody;
    const { added, remaining } = await programs.addRewardCodes({
      programId: req.params.programId as string,
      codes,
    });
    res.json({ added, remaining });
  }

  // Path ids before the body: an id that cannot name a program is 404 noProgram, whatever the body.
  const programId = hexIdParam('programId', programNotFound);
  const router = routeTable(Router(), [
    { endpoint: adminCreateProgram, handler: createProgram },
    { endpoint: adminGetProgram, before: [programId], handler: getProgram },
    { endpoint: adminUpdateProgram, before: [programId], handler: updateProgram },
    { endpoint: adminAddRewardCodes, before: [programId], handler: addRewardCodes },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
