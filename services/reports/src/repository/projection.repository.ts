import type { Knex, Transaction } from '@eligo/runtime';
import { MAX_TAGS_PER_VERIFICATION } from '../domain/conversion';

/**
 * The verification_rows projection. Every write is an upsert keyed by the verification id, because events of
 * one verification come from two topics (verification, documents) and conversions, in no guaranteed order
 * between them: each write sets only what its event knows.
 */
type Db = Knex | Transaction;

export interface CreatedFacts {
  verificationId: string;
  accountId: string;
  programId: string;
  segment: string;
  trackingId: string | null;
  testMode: boolean;
  createdAt: Date;
}

/**
 * `count` rows of typed placeholders for a multi-row VALUES list. The events of a consumer transaction are
 * written with one statement per kind; ON CONFLICT DO UPDATE may touch a row once per statement, so the rows
 * of one call must have distinct verification ids (the caller splits repeats into successive calls).
 */
function valuesOf(types: readonly string[], count: number): string {
  const row = `(${types.map((t) => `?::${t}`).join(', ')})`;
  return Array.from({ length: count }, () => row).join(', ');
}

export async function recordCreated(db: Db, schema: string, facts: readonly CreatedFacts[]): Promise<void> {
  if (facts.length === 0) return;
  await db.raw(
    `insert into ??.verification_rows
       (verification_id, account_id, program_id, segment, tracking_id, test_mode, created_at)
     values ${valuesOf(['text', 'text', 'text', 'text', 'text', 'boolean', 'timestamptz'], facts.length)}
     on conflict (verification_id) do update set
       account_id = excluded.account_id, program_id = excluded.program_id, segment = excluded.segment,
       tracking_id = excluded.tracking_id, test_mode = excluded.test_mode, created_at = excluded.created_at`,
    [
      schema,
      ...facts.flatMap((f) => [
        f.verificationId,
        f.accountId,
        f.programId,
        f.segment,
        f.trackingId,
        f.testMode,
        f.createdAt,
      ]),
    ],
  );
}

export interface StepFacts {
  verificationId: string;
  accountId: string;
  programId: string;
  currentStep: string;
  errorIds: string[];
  testMode: boolean;
  subSegment: string | null;
  organizationId: number | null;
  organizationName: string | null;
  verificationMethod: string | null;
  occurredAt: Date;
}

/**
 * Step changes, each unless a later one was applied already (Kafka keeps one verification's events in order,
 * but a replayed older event must not undo a newer state). What an event does not know (empty) keeps the value.
 */
export async function recordStep(db: Db, schema: string, facts: readonly StepFacts[]): Promise<void> {
  if (facts.length === 0) return;
  const types = ['text', 'text', 'text', 'boolean', 'text', 'text[]', 'text', 'bigint', 'text', 'text'];
  await db.raw(
    `insert into ??.verification_rows as r
       (verification_id, account_id, program_id, test_mode, current_step, error_ids, sub_segment,
        organization_id, organization_name, verification_method, step_changed_at, completed_at)
     values ${valuesOf([...types, 'timestamptz', 'timestamptz'], facts.length)}
     on conflict (verification_id) do update set
       account_id = excluded.account_id, program_id = excluded.program_id, test_mode = excluded.test_mode,
       current_step = excluded.current_step, error_ids = excluded.error_ids,
       sub_segment = coalesce(excluded.sub_segment, r.sub_segment),
       organization_id = coalesce(excluded.organization_id, r.organization_id),
       organization_name = coalesce(excluded.organization_name, r.organization_name),
       verification_method = coalesce(excluded.verification_method, r.verification_method),
       step_changed_at = excluded.step_changed_at,
       completed_at = coalesce(excluded.completed_at, r.completed_at)
     where r.step_changed_at is null or r.step_changed_at <= excluded.step_changed_at`,
    [
      schema,
      ...facts.flatMap((f) => {
        const final = f.currentStep === 'success' || f.currentStep === 'error';
        return [
          f.verificationId,
          f.accountId,
          f.programId,
          f.testMode,
          f.currentStep,
          f.errorIds,
          f.subSegment,
          f.organizationId,
          f.organizationName,
          f.verificationMethod,
          f.occurredAt,
          final ? f.occurredAt : null,
        ];
      }),
    ],
  );
}

export interface MetadataKeysFacts {
  verificationId: string;
  accountId: string;
  programId: string;
  keys: string[];
}

export async function recordMetadataKeys(
  db: Db,
  schema: string,
  facts: readonly MetadataKeysFacts[],
): Promise<void> {
  if (facts.length === 0) return;
  await db.raw(
    `insert into ??.verification_rows (verification_id, account_id, program_id, metadata_keys)
     values ${valuesOf(['text', 'text', 'text', 'text[]'], facts.length)}
     on conflict (verification_id) do update set metadata_keys = excluded.metadata_keys`,
    [schema, ...facts.flatMap((f) => [f.verificationId, f.accountId, f.programId, f.keys])],
  );
}

export interface DocumentsSubmittedFacts {
  verificationId: string;
  programId: string;
}

export async function recordDocumentsSubmitted(
  db: Db,
  schema: string,
  facts: readonly DocumentsSubmittedFacts[],
): Promise<void> {
  if (facts.length === 0) return;
  await db.raw(
    `insert into ??.verification_rows as r (verification_id, program_id, doc_upload_count)
     values ${valuesOf(['text', 'text', 'int'], facts.length)}
     on conflict (verification_id) do update set doc_upload_count = r.doc_upload_count + 1`,
    [schema, ...facts.flatMap((f) => [f.verificationId, f.programId, 1])],
  );
}

export interface ReviewFacts {
  verificationId: string;
  programId: string;
  approved: boolean;
  rejectionReasons: string[];
}

export async function recordReview(db: Db, schema: string, facts: readonly ReviewFacts[]): Promise<void> {
  if (facts.length === 0) return;
  await db.raw(
    `insert into ??.verification_rows (verification_id, program_id, review_outcome, rejection_reasons)
     values ${valuesOf(['text', 'text', 'text', 'text[]'], facts.length)}
     on conflict (verification_id) do update set
       review_outcome = excluded.review_outcome, rejection_reasons = excluded.rejection_reasons`,
    [
      schema,
      ...facts.flatMap((f) => [
        f.verificationId,
        f.programId,
        f.approved ? 'APPROVED' : 'REJECTED',
        f.rejectionReasons,
      ]),
    ],
  );
}

/**
 * Adds a conversion to its verification's running totals (per currency) and tags. The tags kept stay within
 * MAX_TAGS_PER_VERIFICATION: the row's own first, then the conversion's new ones in sorted order while there
 * is room (a first conversion has at most MAX_TAGS, well within it). The row lock of the upsert orders
 * concurrent conversions, so the bound holds under them too.
 */
export async function addConversion(
  db: Db,
  schema: string,
  f: {
    verificationId: string;
    accountId: string;
    programId: string;
    amount: string;
    currency: string;
    tags: string[];
  },
): Promise<void> {
  await db.raw(
    `insert into ??.verification_rows as r
       (verification_id, account_id, program_id, conversion_count, conversion_totals, conversion_tags)
     values (?, ?, ?, 1, jsonb_build_object(?::text, (?::numeric)::text), ?::text[])
     on conflict (verification_id) do update set
       conversion_count = r.conversion_count + 1,
       conversion_totals = r.conversion_totals || jsonb_build_object(
         ?::text,
         (coalesce((r.conversion_totals ->> ?::text)::numeric, 0) + ?::numeric)::text),
       conversion_tags = array(
         select t from unnest(r.conversion_tags) t
         union
         (select t from unnest(excluded.conversion_tags) t where t <> all(r.conversion_tags)
          order by 1 limit greatest(?::int - cardinality(r.conversion_tags), 0))
         order by 1)`,
    [
      schema,
      f.verificationId,
      f.accountId,
      f.programId,
      f.currency,
      f.amount,
      f.tags,
      f.currency,
      f.currency,
      f.amount,
      MAX_TAGS_PER_VERIFICATION,
    ],
  );
}

export interface VerificationOwner {
  verificationId: string;
  accountId: string;
  programId: string;
}

export async function findOwner(
  db: Db,
  schema: string,
  verificationId: string,
): Promise<VerificationOwner | undefined> {
  const row = await db
    .withSchema(schema)
    .table('verification_rows')
    .where({ verification_id: verificationId })
    .whereNotNull('account_id')
    .whereNotNull('created_at')
    .first('verification_id', 'account_id', 'program_id');
  return row
    ? { verificationId: row.verification_id, accountId: row.account_id, programId: row.program_id }
    : undefined;
}

export async function findOwnerByTrackingId(
  db: Db,
  schema: string,
  accountId: string,
  trackingId: string,
): Promise<VerificationOwner | undefined> {
  const row = await db
    .withSchema(schema)
    .table('verification_rows')
    .where({ account_id: accountId, tracking_id: trackingId })
    .whereNotNull('created_at')
    .orderBy('created_at', 'desc')
    .first('verification_id', 'account_id', 'program_id');
  return row
    ? { verificationId: row.verification_id, accountId: row.account_id, programId: row.program_id }
    : undefined;
}

/** Distinct metadata keys of the account's verifications (in those programs), sorted, at most `limit`. */
export async function metadataKeysOf(
  db: Db,
  schema: string,
  f: { accountId: string; programIds: readonly string[]; from?: Date; until?: Date; testMode?: boolean },
  limit: number,
): Promise<string[]> {
  const programs = f.programIds.length ? [...f.programIds] : null;
  const rows = await db.raw<{ rows: { key: string }[] }>(
    `select distinct k.key from ??.verification_rows r, unnest(r.metadata_keys) as k(key)
      where r.account_id = ? and r.created_at is not null
        and (?::text[] is null or r.program_id = any(?::text[]))
        and (?::timestamptz is null or r.created_at >= ?) and (?::timestamptz is null or r.created_at < ?)
        and (?::boolean is null or r.test_mode = ?)
      order by k.key limit ?`,
    [
      schema,
      f.accountId,
      programs,
      programs,
      f.from ?? null,
      f.from ?? null,
      f.until ?? null,
      f.until ?? null,
      f.testMode ?? null,
      f.testMode ?? null,
      limit,
    ],
  );
  return rows.rows.map((r) => r.key);
}
