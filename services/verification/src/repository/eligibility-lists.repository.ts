import { conflict, type Knex } from '@eligo/runtime';
import type { Db } from './db';

/** A version of a program's eligibility list (migration 008). */
export interface EligibilityListRecord {
  id: string;
  programId: string;
  version: number;
  state: 'importing' | 'active' | 'replaced';
  format: string;
  rowsRead: number;
  rowsStored: number;
  rowsRefused: number;
  identifierCount: number;
  duplicates: number;
  createdAt: Date;
  activatedAt: Date | null;
}

interface ListRow {
  id: string;
  program_id: string;
  version: number;
  state: EligibilityListRecord['state'];
  format: string;
  rows_read: string;
  rows_stored: string;
  rows_refused: string;
  identifier_count: string;
  duplicates: string;
  created_at: Date;
  activated_at: Date | null;
}

const fromRow = (r: ListRow): EligibilityListRecord => ({
  id: String(r.id),
  programId: r.program_id,
  version: r.version,
  state: r.state,
  format: r.format,
  rowsRead: Number(r.rows_read),
  rowsStored: Number(r.rows_stored),
  rowsRefused: Number(r.rows_refused),
  identifierCount: Number(r.identifier_count),
  duplicates: Number(r.duplicates),
  createdAt: r.created_at,
  activatedAt: r.activated_at,
});

/**
 * A new version in state importing, numbered one past the program's highest. Two uploads of one program
 * starting at once take their numbers one after the other (a transaction-scoped advisory lock on the
 * program), so neither fails on the unique (program_id, version); the one activated last is the active one.
 */
export async function createImportingVersion(
  db: Knex,
  programId: string,
  format: string,
  now: Date,
): Promise<EligibilityListRecord> {
  return db.transaction(async (trx) => {
    await lockProgram(trx, programId);
    return insertVersion(trx, programId, format, now);
  });
}

/** Until the transaction ends: the program's version numbers and activations, one transaction at a time. */
async function lockProgram(trx: Db, programId: string): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext('eligibility_lists:' || ?))`, [programId]);
}

async function insertVersion(
  db: Db,
  programId: string,
  format: string,
  now: Date,
): Promise<EligibilityListRecord> {
  const [row] = await db
    .raw<{ rows: ListRow[] }>(
      `insert into eligibility_lists (program_id, version, state, format, created_at)
       select ?, coalesce(max(version), 0) + 1, 'importing', ?, ? from eligibility_lists where program_id = ?
     returning *`,
      [programId, format, now, programId],
    )
    .then((r) => r.rows);
  return fromRow(row!);
}

/**
 * Stores one batch of keyed identifiers of a version with one statement (an array per column, unnested):
 * far fewer round trips and parameters than one row per insert. An identifier already in the version is
 * skipped; the answer is how many were new.
 */
export async function insertIdentifiers(
  db: Db,
  listId: string,
  kinds: number[],
  hmacs: Buffer[],
): Promise<number> {
  if (kinds.length === 0) return 0;
  const result = await db.raw<{ rowCount: number }>(
    `insert into eligibility_list_rows (kind, hmac, list_id)
       select k, h, ? from unnest(?::smallint[], ?::bytea[]) as t(k, h)
     on conflict do nothing`,
    [listId, kinds, hmacs],
  );
  return result.rowCount;
}

export interface ImportCounts {
  rowsRead: number;
  rowsStored: number;
  rowsRefused: number;
  identifierCount: number;
  duplicates: number;
}

/**
 * Makes the version the program's active one: the active version (if any) becomes replaced in the same
 * transaction, so a lookup sees either version whole. The caller runs it in a transaction. Returns the
 * replaced version's id, whose rows the caller deletes afterwards.
 */
export async function activateVersion(
  trx: Db,
  list: EligibilityListRecord,
  counts: ImportCounts,
  now: Date,
): Promise<{ activated: EligibilityListRecord; replacedId: string | undefined }> {
  // Two activations of one program in turn: the second then sees the first's active version and replaces it
  // instead of failing on the one-active-version index.
  await lockProgram(trx, list.programId);
  const replaced = await trx('eligibility_lists')
    .where({ program_id: list.programId, state: 'active' })
    .update({ state: 'replaced' })
    .returning<{ id: string }[]>('id');
  const [row] = await trx('eligibility_lists')
    .where({ id: list.id, state: 'importing' })
    .update({
      state: 'active',
      activated_at: now,
      rows_read: counts.rowsRead,
      rows_stored: counts.rowsStored,
      rows_refused: counts.rowsRefused,
      identifier_count: counts.identifierCount,
      duplicates: counts.duplicates,
    })
    .returning<ListRow[]>('*');
  // A DELETE of the program's list during the upload removed this version too.
  if (!row) throw conflict('the eligibility list was removed during the upload; nothing was imported');
  return { activated: fromRow(row), replacedId: replaced[0] ? String(replaced[0].id) : undefined };
}

/** The rows of a version, then the version (a failed import), or only the rows (a replaced version). */
export async function deleteVersionRows(db: Db, listId: string): Promise<void> {
  await db('eligibility_list_rows').where({ list_id: listId }).delete();
}

export async function deleteVersion(db: Db, listId: string): Promise<void> {
  await deleteVersionRows(db, listId);
  await db('eligibility_lists').where({ id: listId }).delete();
}

export async function activeVersion(db: Db, programId: string): Promise<EligibilityListRecord | undefined> {
  const row = await db('eligibility_lists')
    .where({ program_id: programId, state: 'active' })
    .first<ListRow | undefined>();
  return row ? fromRow(row) : undefined;
}

/** Every version of the program with its rows, in one transaction; false when the program had none. */
export async function deleteProgramLists(db: Db, programId: string): Promise<boolean> {
  const ids = await db('eligibility_lists').where({ program_id: programId }).pluck<string[]>('id');
  if (ids.length === 0) return false;
  await db('eligibility_list_rows').whereIn('list_id', ids).delete();
  await db('eligibility_lists').whereIn('id', ids).delete();
  return true;
}

/**
 * Whether any of the keyed identifiers is in the program's active version: one statement, the active
 * version found by its partial unique index and each (kind, hmac) by the primary key.
 */
export async function activeListContains(
  db: Db,
  programId: string,
  identifiers: { kind: number; hmac: Buffer }[],
): Promise<boolean> {
  if (identifiers.length === 0) return false;
  const result = await db.raw<{ rows: unknown[] }>(
    `select 1 from eligibility_list_rows r
       join eligibility_lists l on l.id = r.list_id
      where l.program_id = ? and l.state = 'active'
        and (r.kind, r.hmac) in (select * from unnest(?::smallint[], ?::bytea[]))
      limit 1`,
    [programId, identifiers.map((i) => i.kind), identifiers.map((i) => i.hmac)],
  );
  return result.rows.length > 0;
}

/**
 * Versions of the program still importing since before `before`: imports whose process died. Their rows are
 * deleted when the next import of the program starts.
 */
export async function deleteStaleImports(db: Db, programId: string, before: Date): Promise<void> {
  const ids = await db('eligibility_lists')
    .where({ program_id: programId, state: 'importing' })
    .andWhere('created_at', '<', before)
    .pluck<string[]>('id');
  for (const id of ids) await deleteVersion(db, String(id));
}
