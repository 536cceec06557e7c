import { invalidArgument, notFound } from '@eligo/runtime';
import { rowIdentifiers, type IdentifierFields } from '../domain/eligibility-identifiers';
import {
  activateVersion,
  activeVersion,
  createImportingVersion,
  deleteProgramLists,
  deleteStaleImports,
  deleteVersion,
  deleteVersionRows,
  insertIdentifiers,
  type EligibilityListRecord,
  type ImportCounts,
} from '../repository/eligibility-lists.repository';
import type { AppContext } from './context';
import { requireProgram } from './programs';

/** Rows per message of the import stream, at most (the gateway sends fewer). */
export const MAX_ROWS_PER_BATCH = 5000;
/** The answer lists this many refused rows; the count covers them all. */
export const MAX_REPORTED_REFUSALS = 100;
/** An import still running after this long is taken for dead: the program's next import deletes its rows. */
const STALE_IMPORT_MS = 6 * 60 * 60 * 1000;
const FORMATS = ['csv', 'ndjson'];

export interface ImportRowInput extends IdentifierFields {
  line: number;
  /** Why the caller could not read the row; the row is counted as refused. */
  refusal?: string | undefined;
}

export type ImportPart = { start: { programId: string; format: string } } | { rows: ImportRowInput[] };

export interface ImportResult {
  list: EligibilityListRecord;
  counts: ImportCounts;
  refusals: { line: number; reason: string }[];
}

const malformed = (message: string) => invalidArgument(message, { errorIds: ['invalidRequest'] });

/**
 * Imports a new version of a program's list from a stream: a start, then batches of rows. Each batch is
 * normalised, keyed and stored as it comes (the stream is read only as fast as the rows are stored, so
 * memory stays flat); the version becomes active only at the end, atomically. A failure, or a stream that
 * breaks off, deletes the new version's rows and leaves the active version as it was.
 */
export async function importEligibilityList(
  ctx: AppContext,
  parts: AsyncIterable<ImportPart>,
): Promise<ImportResult> {
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || !('start' in first.value))
    throw malformed('the import must begin with its start message');
  const { programId, format } = first.value.start;
  if (!FORMATS.includes(format)) throw malformed('format must be csv or ndjson');
  await requireProgram(ctx, programId);
  await deleteStaleImports(ctx.db, programId, new Date(ctx.now().getTime() - STALE_IMPORT_MS));
  const list = await createImportingVersion(ctx.db, programId, format, ctx.now());
  const counts: ImportCounts = {
    rowsRead: 0,
    rowsStored: 0,
    rowsRefused: 0,
    identifierCount: 0,
    duplicates: 0,
  };
  const refusals: ImportResult['refusals'] = [];
  // One insert in flight while the next batch is received and keyed: the stream and the database work at
  // the same time, and memory holds at most two batches.
  let storing: Promise<void> = Promise.resolve();
  let storeFailure: { err: unknown } | undefined;
  const store = async (kinds: number[], hmacs: Buffer[]) => {
    await storing;
    if (storeFailure) throw storeFailure.err;
    storing = insertIdentifiers(ctx.db, list.id, kinds, hmacs).then(
      (inserted) => {
        counts.identifierCount += inserted;
        counts.duplicates += kinds.length - inserted;
      },
      (err: unknown) => {
        storeFailure = { err };
      },
    );
  };
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const part = next.value;
      if (!('rows' in part)) throw malformed('the start message may come only once, first');
      if (part.rows.length > MAX_ROWS_PER_BATCH)
        throw malformed(`a batch holds at most ${MAX_ROWS_PER_BATCH} rows`);
      const kinds: number[] = [];
      const hmacs: Buffer[] = [];
      for (const row of part.rows) {
        counts.rowsRead++;
        const read = row.refusal ? { refusal: row.refusal } : rowIdentifiers(row);
        if ('refusal' in read) {
          counts.rowsRefused++;
          if (refusals.length < MAX_REPORTED_REFUSALS)
            refusals.push({ line: row.line, reason: read.refusal });
          continue;
        }
        counts.rowsStored++;
        for (const { kind, value } of read.identifiers) {
          kinds.push(kind);
          hmacs.push(ctx.eligibilityList.lookupHash(value));
        }
      }
      await store(kinds, hmacs);
    }
    await storing;
    if (storeFailure) throw storeFailure.err;
    const { activated, replacedId } = await ctx.db.transaction((trx) =>
      activateVersion(trx, list, counts, ctx.now()),
    );
    // Out of the activation's transaction: lookups already use the new version, and a failure here only
    // leaves rows no lookup reads (a DELETE of the list removes them with their version).
    if (replacedId !== undefined) await deleteVersionRows(ctx.db, replacedId);
    return { list: activated, counts, refusals };
  } catch (err) {
    await storing;
    // The import's own failure is the answer; rows a failed cleanup leaves are no lookup's (the version is
    // not active) and the program's next import deletes them as stale.
    await deleteVersion(ctx.db, list.id).catch(() => undefined);
    throw err;
  }
}

const noList = (programId: string) => notFound(`Program ${programId} has no eligibility list`);

/** The active version's counts and times. NOT_FOUND when the program has none. */
export async function getEligibilityList(ctx: AppContext, programId: string): Promise<EligibilityListRecord> {
  await requireProgram(ctx, programId);
  const list = await activeVersion(ctx.db, programId);
  if (!list) throw noList(programId);
  return list;
}

/** Removes every version of the program's list. NOT_FOUND when it had none. */
export async function deleteEligibilityList(ctx: AppContext, programId: string): Promise<void> {
  await requireProgram(ctx, programId);
  const deleted = await ctx.db.transaction((trx) => deleteProgramLists(trx, programId));
  if (!deleted) throw noList(programId);
}
