import { invalidArgument } from '@eligo/runtime';
import { validateReportRequest, type ReportRequestInput } from '../domain/report-request';
import { findBatch } from '../repository/batches.repository';
import { recordPiiAccess } from '../repository/pii-access.repository';
import { knownProgramsOf } from '../repository/programs.repository';
import { insertReport, type ReportRecord } from '../repository/reports.repository';
import type { AppContext } from './context';
import { noBatch } from './errors';
import { isId, newId } from '../domain/ids';

/**
 * Queues a verification report. Program ids must be the account's: the projection answers for programs it
 * has seen, the programs service for the rest (a program created a moment ago). With personal information,
 * the request and its reason enter the access log in the same transaction as the report.
 */
export async function createVerificationReport(
  app: AppContext,
  input: ReportRequestInput & { accountId: string; tokenId: string },
): Promise<ReportRecord> {
  const { params, pii } = validateReportRequest(input);
  await assertProgramsOf(app, input.accountId, params.programIds);
  return app.db.transaction(async (trx) => {
    const report = await insertReport(trx, app.schema, {
      id: newId(),
      accountId: input.accountId,
      tokenId: input.tokenId,
      kind: 'VERIFICATION',
      params: { ...params },
      piiIncluded: pii !== undefined,
      piiReason: pii?.reason ?? null,
    });
    if (pii)
      await recordPiiAccess(trx, app.schema, {
        accountId: input.accountId,
        tokenId: input.tokenId,
        reportId: report.id,
        action: 'REQUESTED',
        reason: pii.reason,
      });
    return report;
  });
}

/** Queues the report of a re-verification batch of the account (whether or not it has finished). */
export async function createReverifyReport(
  app: AppContext,
  input: { accountId: string; tokenId: string; batchId: string },
): Promise<ReportRecord> {
  const batch = isId(input.batchId)
    ? await findBatch(app.db, app.schema, input.accountId, input.batchId)
    : undefined;
  if (!batch) throw noBatch();
  return insertReport(app.db, app.schema, {
    id: newId(),
    accountId: input.accountId,
    tokenId: input.tokenId,
    kind: 'REVERIFY',
    params: { batchId: batch.id },
    piiIncluded: false,
    piiReason: null,
  });
}

/** 400 invalidRequest naming the first id that is not a program of the account. */
export async function assertProgramsOf(
  app: AppContext,
  accountId: string,
  programIds: readonly string[],
): Promise<void> {
  const known = await knownProgramsOf(app.db, app.schema, accountId, programIds);
  for (const id of programIds) {
    if (known.has(id)) continue;
    if (!(await app.programs.isProgramOf(accountId, id)))
      throw invalidArgument(`Invalid program id: ${id}`, { errorIds: ['invalidRequest'] });
  }
}
