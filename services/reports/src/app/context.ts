import type { Knex, Logger, ObjectStore } from '@eligo/runtime';
import type { ProgramsPort, VerificationPort } from './ports';

/** What the reports use cases need, built once per module (index.ts) and passed down. */
export interface AppContext {
  db: Knex;
  schema: string;
  /** Report files, encrypted at rest (an EncryptedObjectStore over the process's store). */
  store: ObjectStore;
  verification: VerificationPort;
  programs: ProgramsPort;
  logger: Logger;
  /** A generator's or re-verifier's claim lasts this long unless renewed. */
  leaseMs: number;
  /** A finished report's data is kept this long, then purged (GET answers 410). */
  retentionMs: number;
  /** How old an object no report refers to must be before the orphan sweep deletes it. */
  orphanGraceMs: number;
  /** Rows read (and personal information fetched) per round trip while generating. */
  reportBatchRows: number;
  /** The report worker thread (app/report-csv.ts): its own connection, and the cap on its old space. */
  reportWorker: { databaseUrl: string; heapMb: number };
  reverify: { maxIds: number; concurrency: number };
}
