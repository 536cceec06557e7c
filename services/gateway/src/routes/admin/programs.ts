import { Router } from 'express';
import type { ProgramsClient } from '../../clients/programs.client';
import {
  patchNeedsStoredReview,
  present,
  programCreateToProto,
  programPatchToProto,
  programToJson,
  type ProgramCreateInput,
  type ProgramSettingsInput,
} from '../../mapping/program';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import type { RequestValidator } from '../../validation/request-validator';

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
    const target = { programId: req.params.programId as string, accountId: '' };
    const patch = req.body as ProgramSettingsInput;
    // document_review is replaced whole: a patch of one review key carries the stored values of the others.
    const stored = patchNeedsStoredReview(patch)
      ? present((await programs.getProgram(target)).program, 'program').documentReview
      : undefined;
    const { program, updateMask } = programPatchToProto(patch, stored);
    const reply = await programs.updateProgram({ ...target, program, updateMask });
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

  return router;
}
