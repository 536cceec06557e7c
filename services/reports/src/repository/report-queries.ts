import { assertSchemaName } from '@eligo/runtime';

export type { ReportRow, ReverifyReportRow } from '../domain/report-row';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const projectionColumns = (s: string) => `
  r.verification_id, r.program_id, p.name as program_name, r.tracking_id, r.segment, r.sub_segment,
  r.test_mode, r.current_step, r.error_ids, r.verification_method, r.organization_id, r.organization_name,
  r.doc_upload_count, r.review_outcome, r.rejection_reasons, r.metadata_keys, r.conversion_count,
  r.conversion_totals, r.conversion_tags, ${iso('r.created_at')} as created,
  ${iso('r.step_changed_at')} as last_updated, ${iso('r.completed_at')} as completed
  from ${s}.verification_rows r left join ${s}.programs p on p.program_id = r.program_id`;

/**
 * The account's verifications started in [from, until), in start order, served by the
 * (account_id, created_at, verification_id) index: no sort, whatever the size.
 */
export function verificationReportQuery(
  schema: string,
  f: { accountId: string; from: Date; until: Date; programIds: readonly string[]; testMode: boolean | null },
): { sql: string; values: unknown[] } {
  assertSchemaName(schema);
  const s = schema;
  const values: unknown[] = [f.accountId, f.from, f.until];
  let where = 'r.account_id = $1 and r.created_at >= $2 and r.created_at < $3';
  if (f.programIds.length > 0) {
    values.push(f.programIds);
    where += ` and r.program_id = any($${values.length}::text[])`;
  }
  if (f.testMode !== null) {
    values.push(f.testMode);
    where += ` and r.test_mode = $${values.length}`;
  }
  return {
    sql: `select ${projectionColumns(s)} where ${where} order by r.created_at, r.verification_id`,
    values,
  };
}

/**
 * A batch's items in request order, each with what the projection knows of its verification: the rows
 * reverifyCells (domain/report-cells.ts) is applied to in the test that holds Postgres's re-verification report
 * (report-copy.ts, which writes it) to the JavaScript reference byte for byte.
 */
export function reverifyReportQuery(schema: string, batchId: string): { sql: string; values: unknown[] } {
  assertSchemaName(schema);
  const s = schema;
  return {
    sql: `select i.batch_id, i.verification_id as item_verification_id, i.outcome as reverify_outcome,
            i.error_ids as reverify_error_ids, i.current_step as reverify_step,
            i.organization_id as reverify_organization_id, ${iso('i.processed_at')} as processed,
            ${projectionColumns(s).replace(
              `from ${s}.verification_rows r left join`,
              `from ${s}.reverify_items i
               left join ${s}.reverify_batches b on b.id = i.batch_id
               left join ${s}.verification_rows r on r.verification_id = i.verification_id
                 and r.account_id = b.account_id
               left join`,
            )}
          where i.batch_id = $1 order by i.position`,
    values: [batchId],
  };
}
