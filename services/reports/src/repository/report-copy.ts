import { escapeLiteral } from 'pg';
import { assertSchemaName } from '@eligo/runtime';

/**
 * A report without personal information, as Postgres writes it: `COPY (...) TO STDOUT (FORMAT binary)` of one
 * text column, each value a whole CSV line of the report (CRLF included), byte for byte what the cells of
 * domain/report-cells.ts and csvLines make of the same row in JavaScript; a test holds the two together.
 * Postgres builds each line while it reads the rows, so the report's bytes reach this process already encoded:
 * no row objects, no cell strings, no worker thread (app/report-copy.ts). COPY takes no bind parameters, so
 * the filter's values are written into the statement as quoted literals (pg's escapeLiteral).
 */

/** The verification report (standardCells) of the rows the filter selects, oldest first. */
export function verificationReportCopy(
  schema: string,
  f: { accountId: string; from: Date; until: Date; programIds: readonly string[]; testMode: boolean | null },
): string {
  assertSchemaName(schema);
  let where =
    `r.account_id = ${escapeLiteral(f.accountId)}` +
    ` and r.created_at >= ${escapeLiteral(f.from.toISOString())}::timestamptz` +
    ` and r.created_at < ${escapeLiteral(f.until.toISOString())}::timestamptz`;
  if (f.programIds.length > 0)
    where += ` and r.program_id = any(array[${f.programIds.map(escapeLiteral).join(',')}]::text[])`;
  if (f.testMode !== null) where += ` and r.test_mode = ${f.testMode}`;
  return csvCopy(
    CELLS,
    `${schema}.verification_rows r left join ${schema}.programs p on p.program_id = r.program_id
    where ${where}`,
    ['r.created_at', 'r.verification_id'],
  );
}

/**
 * A re-verification batch's report (reverifyCells): its items in request order, each with what the projection
 * knows of its verification; one the projection has not seen, or another account's, shows only its result.
 */
export function reverifyReportCopy(schema: string, batchId: string): string {
  assertSchemaName(schema);
  const known = (cell: string) => `(case when r.verification_id is null then '' else ${cell} end)`;
  return csvCopy(
    [
      'i.batch_id',
      text('i.verification_id'),
      `coalesce(i.outcome, 'PENDING')`,
      `array_to_string(i.error_ids, '|', '')`,
      or('i.organization_id::text'),
      iso('i.processed_at'),
      ...CELLS.slice(1).map(known),
    ],
    `${schema}.reverify_items i
    left join ${schema}.reverify_batches b on b.id = i.batch_id
    left join ${schema}.verification_rows r on r.verification_id = i.verification_id and r.account_id = b.account_id
    left join ${schema}.programs p on p.program_id = r.program_id
    where i.batch_id = ${escapeLiteral(batchId)}`,
    ['i.position'],
  );
}

/**
 * The COPY of CSV lines made of `cells` (SQL expressions that are never null: concat_ws would drop a null with
 * its comma) over `source` (tables and condition), in the order of `order`. The cells are made once per row in
 * the inner select (offset 0 keeps it apart, so that the outer expressions do not compute them again); a line
 * is quoted cell by cell only when one of its cells needs it.
 */
function csvCopy(cells: readonly string[], source: string, order: readonly string[]): string {
  const names = cells.map((_, i) => `c${i}`);
  const keys = order.map((_, i) => `x.o${i}`);
  return `copy (
  select case when concat(${names.join(', ')}) ~ '[",\\r\\n]'
    then concat_ws(',', ${names.map(quoted).join(', ')})
    else concat_ws(',', ${names.join(', ')}) end || E'\\r\\n'
  from (select ${cells.map((cell, i) => `${cell} as c${i}`).join(',\n    ')},
    ${order.map((column, i) => `${column} as o${i}`).join(', ')}
    from ${source}
    order by ${order.join(', ')} offset 0) x
  order by ${keys.join(', ')}
) to stdout (format binary)`;
}

/** csvLines' quoting of one field (RFC 4180): quotes doubled inside, the field quoted. */
const quoted = (cell: string) =>
  `(case when ${cell} ~ '[",\\r\\n]' then '"' || replace(${cell}, '"', '""') || '"' else ${cell} end)`;

/** textCell: empty for null, a quote before a value a spreadsheet would take for a formula. */
const text = (value: string) =>
  `(case when left(${value}, 1) in ('=', '+', '-', '@', E'\\t', E'\\r') then '''' || ${value} else coalesce(${value}, '') end)`;

/** listCell: the items joined by "|", each as textCell makes it (item by item only when one needs a quote). */
const list = (values: string) =>
  `(case when array_to_string(${values}, '|', '') ~ '(^|[|])[-=+@\\t\\r]'
    then (select string_agg(${text('u.item')}, '|' order by u.n) from unnest(${values}) with ordinality as u(item, n))
    else array_to_string(${values}, '|', '') end)`;

/** totalsCell: "EUR 3.00|USD 12.50", by currency (upper-case ISO codes: the same order as localeCompare's). */
const totals = (column: string) =>
  `(case when ${column} = '{}'::jsonb then '' else (
    select string_agg(t.key || ' ' || split_part(t.value, '.', 1) || '.' ||
      (case when length(f.kept) >= 2 then f.kept else rpad(f.kept, 2, '0') end), '|' order by t.key collate "C")
    from jsonb_each_text(${column}) t, lateral (select rtrim(split_part(t.value, '.', 2), '0') as kept) f) end)`;

const or = (value: string) => `coalesce(${value}, '')`;
const iso = (column: string) => or(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The cells of standardCells (domain/report-cells.ts), in STANDARD_FIELDS order, as SQL expressions. */
const CELLS: readonly string[] = [
  'r.verification_id',
  or('r.program_id'),
  text('p.name'),
  text('r.tracking_id'),
  or('r.segment'),
  or('r.sub_segment'),
  `(case when r.test_mode then 'TEST' when not r.test_mode then 'LIVE' else '' end)`,
  or('r.current_step'),
  `(case r.current_step when 'success' then 'SUCCESS'
    when 'error' then (case when 'expiredVerification' = any(r.error_ids) then 'EXPIRED' else 'ERROR' end)
    when 'pending' then 'PENDING_REVIEW' when 'docUpload' then 'DOC_UPLOAD' else 'IN_PROGRESS' end)`,
  `array_to_string(r.error_ids, '|', '')`,
  or('r.verification_method'),
  or('r.organization_id::text'),
  text('r.organization_name'),
  'r.doc_upload_count::text',
  or('r.review_outcome'),
  `array_to_string(r.rejection_reasons, '|', '')`,
  list('r.metadata_keys'),
  'r.conversion_count::text',
  totals('r.conversion_totals'),
  list('r.conversion_tags'),
  iso('r.created_at'),
  iso('r.step_changed_at'),
  iso('r.completed_at'),
];
