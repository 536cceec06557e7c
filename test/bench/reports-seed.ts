import type { Client } from 'pg';

/** One report's rows: `rows` verifications of the account started in [startDate 00:00Z, endDate + 1 day). */
export interface SeededRange {
  rows: number;
  /** YYYY-MM-DD, inclusive, as the report request names it. */
  startDate: string;
  endDate: string;
}

const DAY_MS = 86_400_000;

/** A range of `days` days starting at `startDate`, for `rows` rows. */
export function rangeOf(rows: number, startDate: string, days: number): SeededRange {
  const end = new Date(Date.parse(`${startDate}T00:00:00Z`) + (days - 1) * DAY_MS);
  return { rows, startDate, endDate: end.toISOString().slice(0, 10) };
}

/**
 * The programs' names where the reports module reads them (its ProgramCreated consumer writes the same rows;
 * whichever comes first, the name is the program's).
 */
export async function seedPrograms(
  db: Client,
  accountId: string,
  programs: readonly { programId: string; name: string }[],
): Promise<void> {
  for (const p of programs)
    await db.query(
      `insert into reports.programs (program_id, account_id, name) values ($1, $2, $3)
       on conflict (program_id) do nothing`,
      [p.programId, accountId, p.name],
    );
}

/**
 * Writes the range's rows into reports.verification_rows with one INSERT ... SELECT over generate_series, as
 * the projection's consumers would have left them: the account's programs in turn, a mix of steps and
 * outcomes (success, error, expired, docUpload, pending review, in progress) with their error ids,
 * organizations (some names holding a comma, so quoted in the CSV), tracking ids (some absent, some starting
 * like a formula), metadata keys, document uploads and reviews, and conversions with per-currency totals on
 * some successes. created_at is spread evenly over the range, so a report of the range covers exactly `rows`
 * rows.
 */
export async function seedVerificationRows(
  db: Client,
  accountId: string,
  programIds: readonly string[],
  range: SeededRange,
): Promise<void> {
  const from = new Date(`${range.startDate}T00:00:00Z`);
  const until = new Date(Date.parse(`${range.endDate}T00:00:00Z`) + DAY_MS);
  await db.query(
    `insert into reports.verification_rows
       (verification_id, account_id, program_id, segment, sub_segment, tracking_id, test_mode, current_step,
        error_ids, organization_id, organization_name, verification_method, metadata_keys, doc_upload_count,
        review_outcome, rejection_reasons, conversion_count, conversion_totals, conversion_tags, created_at,
        step_changed_at, completed_at)
     select
       substr(md5($1 || ':' || $4::text || ':' || g), 1, 24),
       $1,
       ($2::text[])[1 + g % cardinality($2::text[])],
       case when k = 3 then 'military' else 'student' end,
       case when k = 3 then 'veteran' end,
       case when g % 4 = 0 then null when g % 1000 = 7 then '=HYPERLINK(' || g || ')' else 'trk-' || g end,
       g % 20 = 0,
       step,
       case
         when step = 'error' and k = 9 then '{expiredVerification}'::text[]
         when step = 'error' then '{noMatch,verificationLimitExceeded}'::text[]
         when step = 'docUpload' then '{noMatch}'::text[]
         else '{}'::text[]
       end,
       case when step in ('success', 'docUpload', 'pending') then 1000 + g % 500 end,
       case
         when step not in ('success', 'docUpload', 'pending') then null
         when g % 7 = 0 then 'State University, Campus ' || g % 500
         else 'University ' || g % 500
       end,
       case when step = 'success' then case when g % 3 = 0 then 'MANUAL' else 'INSTANT' end end,
       case g % 3 when 0 then '{}'::text[] when 1 then '{campaign}'::text[]
         else '{campaign,channel,utm_source}'::text[] end,
       case when step in ('docUpload', 'pending') or (step = 'success' and g % 3 = 0) then 1 + g % 2
         else 0 end,
       case
         when step = 'success' and g % 3 = 0 then 'APPROVED'
         when step = 'docUpload' and g % 2 = 1 then 'REJECTED'
       end,
       case when step = 'docUpload' and g % 2 = 1 then '{DOCUMENT_UNREADABLE,NAME_MISMATCH}'::text[]
         else '{}'::text[] end,
       case when step <> 'success' or g % 10 <> 0 then 0 when g % 50 = 0 then 2 else 1 end,
       case
         when step <> 'success' or g % 10 <> 0 then '{}'::jsonb
         when g % 50 = 0 then jsonb_build_object('EUR', '3.2000', 'USD', (g % 100) || '.5000')
         else jsonb_build_object('USD', '12.5000')
       end,
       case when step = 'success' and g % 50 = 0 then '{spring,promo}'::text[] else '{}'::text[] end,
       created,
       created + interval '3 minutes',
       case when step in ('success', 'error') then created + interval '3 minutes' end
     from (
       select g, g % 10 as k,
         case g % 10
           when 5 then 'error' when 9 then 'error' when 6 then 'docUpload' when 7 then 'pending'
           when 8 then 'collectStudentPersonalInfo' else 'success'
         end as step,
         $4::timestamptz + (g - 1) * (($5::timestamptz - $4::timestamptz) / $3::int) as created
       from generate_series(1, $3::int) as g
     ) s`,
    [accountId, programIds, range.rows, from, until],
  );
}

/**
 * After seeding: VACUUM ANALYZE, so that neither the generator nor the baseline pays for the first visit of
 * fresh rows (setting their hint bits writes the pages) and the planner knows the table's size.
 */
export async function settle(db: Client): Promise<void> {
  await db.query('vacuum analyze reports.verification_rows');
}
