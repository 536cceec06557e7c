import type { Knex, Logger, ObjectStore } from '@eligo/runtime';
import type { ProgramsPort, VerificationPort } from './ports';

/** What the reports use cases need, built once per module (index.ts) and passed down. */
export interface AppContext {
  db: Knex;
  schema: string;
  /** Report files, encrypted at rest (an EncryptedObjectStore over the process's store): reads, deletes. */
  store: ObjectStore;
  /** The process's store as it is: new report files go in already sealed by the report worker. */
  rawStore: ObjectStore;
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
  /**
   * The report worker thread (app/report-parts.ts): its own connection, the cap on its old space, the master
   * key it seals with, and the size of the parts it hands over (the S3 store's, so that each goes as it is).
   */
  reportWorker: { databaseUrl: string; heapMb: number; masterKey: Buffer; partBytes: number };
  reverify: { maxIds: number; concurrency: number };
}
