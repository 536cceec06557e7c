import { Router, type NextFunction, type Request, type Response } from 'express';
import { status as Status } from '@grpc/grpc-js';
import type { verificationEligibilityListV1 as v1 } from '@eligo/proto';
import { decodeGrpcError } from '@eligo/runtime';
import type { VerificationClient } from '../../clients/verification.client';
import {
  adminDeleteEligibilityList,
  adminGetEligibilityList,
  adminPutEligibilityList,
  type EligibilityListImportJson,
  type EligibilityListJson,
} from '../../endpoints/admin-eligibility-lists';
import { routeTable } from '../../endpoints/route-table';
import { RestError } from '../../errors';
import { importListFromRequest } from '../../import/eligibility-import';
import { importFormat } from '../../import/import-request';
import { present } from '../../mapping/program';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminEligibilityListOptions {
  verification: VerificationClient;
  /** ELIGO_GATEWAY_IMPORT_MAX_BYTES, as for the organization import. */
  maxBytes: number;
}

/**
 * A program's eligibility list (endpoints/admin-eligibility-lists.ts). Mounted ahead of the admin API's JSON
 * parser like the organization import: the PUT streams its own body (CSV or NDJSON) under its own limit.
 */
export function adminEligibilityListRouter(options: AdminEligibilityListOptions): Router {
  const { verification } = options;
  const programIdOf = (req: Request) => req.params.programId as string;

  async function upload(req: Request, res: Response) {
    const reply = await importListFromRequest(req, {
      programId: programIdOf(req),
      format: importFormat(req),
      maxBytes: options.maxBytes,
      send: (messages) => verification.importEligibilityList(messages),
    });
    // The audit entry (staff/audit-hook.ts) names the version the upload made active.
    res.locals.auditTargets = { listVersion: String(reply.list?.version ?? '') };
    res.json(importResultToJson(reply) satisfies EligibilityListImportJson);
  }

  async function get(req: Request, res: Response) {
    const { list } = await verification.getEligibilityList({ programId: programIdOf(req) });
    res.json(listToJson(present(list, 'list')) satisfies EligibilityListJson);
  }

  async function remove(req: Request, res: Response) {
    await verification.deleteEligibilityList({ programId: programIdOf(req) });
    res.status(204).end();
  }

  const programId = [hexIdParam('programId', programNotFound)];
  const router = routeTable(Router(), [
    { endpoint: adminPutEligibilityList, before: programId, handler: upload },
    { endpoint: adminGetEligibilityList, before: programId, handler: get, errors: [noList] },
    { endpoint: adminDeleteEligibilityList, before: programId, handler: remove, errors: [noList] },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

/** The service's NOT_FOUND without an errorId is a known program without a list: ER, as the 404 states. */
function noList(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const decoded = decodeGrpcError(err);
  if (decoded.code !== Status.NOT_FOUND || decoded.errorIds.length > 0) return next(err);
  next(new RestError(404, 'The program has no eligibility list', 'ER', []));
}

export function listToJson(list: v1.EligibilityListVersion): EligibilityListJson {
  return {
    programId: list.programId,
    version: list.version,
    format: list.format === 'ndjson' ? 'ndjson' : 'csv',
    rows: list.rowCount,
    identifiers: list.identifierCount,
    created: present(list.createdAt, 'createdAt').getTime(),
    activated: present(list.activatedAt, 'activatedAt').getTime(),
  };
}

function importResultToJson(reply: v1.ImportEligibilityListResponse): EligibilityListImportJson {
  return {
    list: listToJson(present(reply.list, 'list')),
    rowsRead: reply.rowsRead,
    rowsStored: reply.rowsStored,
    rowsRefused: reply.rowsRefused,
    duplicates: reply.duplicates,
    refusals: reply.refusals.map(({ line, reason }) => ({ line, reason })),
  };
}
