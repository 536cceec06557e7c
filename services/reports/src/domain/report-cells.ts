import { totalsCell } from './totals-cell';
import { listCell, textCell } from './csv';
import { metadataField, PII_FIELDS, STANDARD_FIELDS } from './fields';
import { outcomeOf } from './outcome';
import type { PersonalInfo } from './personal-info';
import type { ReportRow, ReverifyReportRow } from './report-row';

/** The standard cells of a projection row, in STANDARD_FIELDS order. */
export function standardCells(r: ReportRow): string[] {
  return [
    r.verification_id,
    r.program_id ?? '',
    textCell(r.program_name),
    textCell(r.tracking_id),
    r.segment ?? '',
    r.sub_segment ?? '',
    r.test_mode === null ? '' : r.test_mode ? 'TEST' : 'LIVE',
    r.current_step ?? '',
    outcomeOf(r.current_step, r.error_ids),
    r.error_ids.join('|'),
    r.verification_method ?? '',
    r.organization_id ?? '',
    textCell(r.organization_name),
    String(r.doc_upload_count),
    r.review_outcome ?? '',
    r.rejection_reasons.join('|'),
    listCell(r.metadata_keys),
    String(r.conversion_count),
    totalsCell(r.conversion_totals),
    listCell(r.conversion_tags),
    r.created ?? '',
    r.last_updated ?? '',
    r.completed ?? '',
  ];
}

/** The PII cells (PII_FIELDS order) then one per metadata key; empty when the person is unknown. */
export function personalCells(person: PersonalInfo | undefined, metadataKeys: readonly string[]): string[] {
  const p = person;
  return [
    textCell(p?.firstName),
    textCell(p?.lastName),
    textCell(p?.email),
    textCell(p?.phoneNumber),
    p?.birthDate ?? '',
    textCell(p?.postalCode),
    p?.country ?? '',
    ...metadataKeys.map((key) => textCell(p?.metadata[key])),
  ];
}

export function verificationHeader(pii: boolean, metadataKeys: readonly string[]): string[] {
  const names = STANDARD_FIELDS.map((f) => f.name);
  return pii
    ? [...names, ...PII_FIELDS.map((f) => f.name), ...metadataKeys.map((k) => metadataField(k).name)]
    : names;
}

/** A re-verification report: the item's result first, then what the projection knows of the verification. */
export const REVERIFY_FIELDS = [
  'batchId',
  'verificationId',
  'reverifyOutcome',
  'reverifyErrorIds',
  'reverifyOrganizationId',
  'processed',
  ...STANDARD_FIELDS.map((f) => f.name).filter((n) => n !== 'verificationId'),
];

/**
 * A re-verification report's cells. Postgres writes the report (repository/report-copy.ts); this is the
 * reference its bytes are tested against (report-copy.int.test.ts), as standardCells is for the verification
 * report.
 */
export function reverifyCells(r: ReverifyReportRow): string[] {
  // A verification the projection has not seen (or another account's) shows only its id and result.
  const known = r.verification_id !== null;
  const standard = known ? standardCells(r).slice(1) : STANDARD_FIELDS.slice(1).map(() => '');
  return [
    r.batch_id,
    textCell(r.item_verification_id),
    r.reverify_outcome ?? 'PENDING',
    r.reverify_error_ids.join('|'),
    r.reverify_organization_id ?? '',
    r.processed ?? '',
    ...standard,
  ];
}
