import type { PersonalInfo } from '../domain/personal-info';

/** What a report worker (app/report-worker.ts) is started with. */
export interface ReportJob {
  databaseUrl: string;
  applicationName: string;
  /** The report's query (repository/report-queries.ts), built by the main thread. */
  sql: string;
  values: unknown[];
  batchRows: number;
  kind: 'VERIFICATION' | 'REVERIFY';
  /** The metadata columns of a verification report with personal information; absent without it. */
  metadataKeys?: string[];
}

/** Main thread to worker: the next batch, or the personal information a batch asked for. */
export type ToWorker = { type: 'next' } | { type: 'people'; people: [string, PersonalInfo][] };

/** Worker to main thread: a batch's CSV, a request for personal information, the end, or a failure. */
export type FromWorker =
  | { type: 'csv'; bytes: Uint8Array; rows: number }
  | { type: 'people'; ids: string[] }
  | { type: 'end' }
  | { type: 'failed'; message: string };
