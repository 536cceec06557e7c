import type { PersonalInfo } from '../domain/personal-info';

/** What a report worker (app/report-worker.ts) is started with: a verification report's job. */
export interface ReportJob {
  databaseUrl: string;
  applicationName: string;
  /** The report's query (repository/report-queries.ts), built by the main thread. */
  sql: string;
  values: unknown[];
  batchRows: number;
  /** The metadata columns of a verification report with personal information; absent without it. */
  metadataKeys?: string[];
  /** The file's first line (the header), made by the main thread. */
  header: string;
  /**
   * How the file is sealed (the object cipher of ELIGO_ENCRYPTION_KEY for `purpose`, bound to `objectKey`,
   * as the encrypted store seals), and the size of the parts the worker hands over.
   */
  seal: { masterKey: Uint8Array; purpose: string; objectKey: string; partBytes: number };
}

/**
 * Main thread to worker: the next part; the personal information a batch asked for; or a part's memory back,
 * once the store is done with it, for the worker to fill again.
 */
export type ToWorker =
  | { type: 'next' }
  | { type: 'people'; people: [string, PersonalInfo][] }
  | { type: 'recycle'; buffer: ArrayBuffer };

/**
 * Worker to main thread: a part of the sealed file (its memory transferred; `rows` sealed so far), a request
 * for personal information, the end (with the row count), or a failure.
 */
export type FromWorker =
  | { type: 'part'; bytes: Uint8Array; rows: number }
  | { type: 'people'; ids: string[] }
  | { type: 'end'; rows: number }
  | { type: 'failed'; message: string };
