import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { csvLines } from '../domain/csv';
import { personalCells, reverifyCells, standardCells } from '../domain/report-cells';
import type { PersonalInfo } from '../domain/personal-info';
import type { ReportRow, ReverifyReportRow } from '../domain/report-row';
import type { FromWorker, ReportJob, ToWorker } from './report-worker-protocol';

/**
 * The report worker thread (app/report-csv.ts starts one per report): reads the report's query through a
 * server-side cursor on its own connection and turns each batch into CSV, one batch ahead of what the main
 * thread asked for. It imports only pg and the report's domain cells, so that its heap (capped by the
 * main thread's resourceLimits) holds a batch and little else, and the garbage of a million rows is collected
 * here, never in the heap that serves requests. Personal information is asked of the main thread, which holds
 * the verification service's client.
 */
const port = parentPort!;
const job = workerData as ReportJob;

/**
 * The two kinds of message arrive independently (a `next` may come while a batch waits for its people), so
 * each has its own queue.
 */
const queues = { next: [] as ToWorker[], people: [] as ToWorker[] };
const waiting: { next?: (message: ToWorker) => void; people?: (message: ToWorker) => void } = {};
port.on('message', (message: ToWorker) => {
  const resolve = waiting[message.type];
  if (resolve) {
    waiting[message.type] = undefined;
    resolve(message);
  } else queues[message.type].push(message);
});
const receive = (type: ToWorker['type']): Promise<ToWorker> =>
  queues[type].length > 0
    ? Promise.resolve(queues[type].shift()!)
    : new Promise((resolve) => (waiting[type] = resolve));

async function peopleOf(ids: string[]): Promise<Map<string, PersonalInfo>> {
  port.postMessage({ type: 'people', ids } satisfies FromWorker);
  const answer = await receive('people');
  return new Map(answer.type === 'people' ? answer.people : []);
}

/** One batch as CSV (encoded, in a buffer of its own that can be transferred), or undefined at the end. */
async function produce(cursor: Cursor<ReportRow>): Promise<FromWorker | undefined> {
  const rows = await cursor.read(job.batchRows);
  if (rows.length === 0) return undefined;
  let cells: string[][];
  if (job.kind === 'REVERIFY') cells = (rows as ReverifyReportRow[]).map(reverifyCells);
  else if (job.metadataKeys) {
    const keys = job.metadataKeys;
    const people = await peopleOf(rows.map((r) => r.verification_id));
    cells = rows.map((r) => [...standardCells(r), ...personalCells(people.get(r.verification_id), keys)]);
  } else cells = rows.map(standardCells);
  return { type: 'csv', bytes: new TextEncoder().encode(csvLines(cells)), rows: rows.length };
}

async function run(): Promise<void> {
  const client = new pg.Client({ connectionString: job.databaseUrl, application_name: job.applicationName });
  await client.connect();
  try {
    const cursor = client.query(new Cursor<ReportRow>(job.sql, job.values));
    let next = await produce(cursor);
    for (;;) {
      await receive('next');
      if (!next) {
        port.postMessage({ type: 'end' } satisfies FromWorker);
        return;
      }
      const sent = next;
      port.postMessage(sent, sent.type === 'csv' ? [sent.bytes.buffer as ArrayBuffer] : []);
      next = await produce(cursor);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

run().catch((err: unknown) => {
  // The message only: the main thread logs it with the report; rows never travel in an error.
  port.postMessage({
    type: 'failed',
    message: err instanceof Error ? err.message : String(err),
  } satisfies FromWorker);
});
