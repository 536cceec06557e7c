import { Router } from 'express';
import type { ProgramsClient } from '../../clients/programs.client';
import {
  present,
  programCreateToProto,
  programPatchToProto,
  programToJson,
  type ProgramCreateInput,
  type ProgramSettingsInput,
} from '../../mapping/program';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import type { RequestValidator } from '../../validation/request-validator';
import { adminInvalidRequest } from './invalid-request';

export interface AdminProgramRouteOptions {
  programs: ProgramsClient;
  validator: RequestValidator;
}

/**
 * Programs of any account (operator token checked by the admin router). The operator acts without an
 * account, so account_id stays empty in the requests that take one.
 */
export function adminProgramRouter({ programs, validator }: AdminProgramRouteOptions): Router {
  const router = Router();
  const programId = hexIdParam('programId', programNotFound);

  router.post('/programs', validator.body('ProgramCreateRequest'), async (req, res) => {
    const reply = await programs.createProgram({
      program: programCreateToProto(req.body as ProgramCreateInput),
    });
    const json = programToJson(present(reply.program, 'program'), reply.webhookSigningSecret);
    res.status(201);
    if (reply.webhookSigningSecret) res.set('Cache-Control', 'no-store');
    res.json(json);
  });

  router.get('/programs/:programId', programId, async (req, res) => {
    const { program } = await programs.getProgram({
      programId: req.params.programId as string,
      accountId: '',
    });
    res.json(programToJson(present(program, 'program')));
  });

  router.patch('/programs/:programId', programId, validator.body('ProgramPatchRequest'), async (req, res) => {
    const { program, updateMask } = programPatchToProto(req.body as ProgramSettingsInput);
    const reply = await programs.updateProgram({
      programId: req.params.programId as string,
      accountId: '',
      program,
      updateMask,
    });
    if (reply.webhookSigningSecret) res.set('Cache-Control', 'no-store');
    res.json(programToJson(present(reply.program, 'program'), reply.webhookSigningSecret));
  });

  router.post(
    '/programs/:programId/rewardCodes',
    programId,
    validator.body('RewardCodesRequest'),
    async (req, res) => {
      const { codes } = req.body as { codes: string[] };
      const { added, remaining } = await programs.addRewardCodes({
        programId: req.params.programId as string,
        codes,
      });
      res.json({ added, remaining });
    },
  );

  router.use(adminInvalidRequest);
  return router;
}
