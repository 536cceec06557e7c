import { parentPort, workerData } from 'node:worker_threads';
// The cipher alone, not the whole runtime: this thread's heap holds a batch and little else.
import { createObjectCipher } from '@eligo/runtime/dist/crypto/object-cipher';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { csvLines } from '../domain/csv';
import { personalCells, standardCells } from '../domain/report-cells';
import type { PersonalInfo } from '../domain/personal-info';
import type { ReportRow } from '../domain/report-row';
import type { FromWorker, ReportJob, ToWorker } from './report-worker-protocol';

/**
 * The report worker thread (app/report-parts.ts starts one per report): reads the report's query through a
 * server-side cursor on its own connection, turns each batch into CSV, seals it (the reports' object cipher,
 * as the encrypted store would) and packs the sealed bytes into parts of the store's part size, handed to the
 * main thread one at a time as it asks. Every allocation of the file's bytes is this thread's, whose small
 * young generation frees them within moments; the main thread only sends the parts, and gives each part's
 * memory back once the store is done with it, so two part buffers serve the whole file. Personal information
 * is asked of the main thread, which holds the verification service's client.
 */
const port = parentPort!;
const job = workerData as ReportJob;

/** Each kind of message arrives independently (a `next` may come while a batch waits for its people). */
const queues: Record<ToWorker['type'], ToWorker[]> = { next: [], people: [], recycle: [] };
const waiting: Partial<Record<ToWorker['type'], (message: ToWorker) => void>> = {};
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

let rowsRead = 0;

/**
 * What a request for people may weigh: a person counts one, plus one per metadata key the projection knows
 * it has (a value may be 1,024 characters, 2 KB in memory when not Latin-1). Without metadata a batch is one
 * request, as before; people with all 50 keys the API allows go 98 at a time (about 10 MB), where a whole
 * batch of them (100 MB) would not fit the worker's default heap.
 */
const PEOPLE_WEIGHT_PER_REQUEST = 5000;

/** A batch's rows in slices whose people each weigh at most PEOPLE_WEIGHT_PER_REQUEST together. */
function* peopleSlices(rows: ReportRow[]): Generator<ReportRow[]> {
  let from = 0;
  let weight = 0;
  for (let i = 0; i < rows.length; i++) {
    const own = 1 + rows[i]!.metadata_keys.length;
    if (i > from && weight + own > PEOPLE_WEIGHT_PER_REQUEST) {
      yield rows.slice(from, i);
      from = i;
      weight = 0;
    }
    weight += own;
  }
  if (from < rows.length) yield rows.slice(from);
}

/**
 * Cells are turned into CSV text (and bytes) about this many characters at a time: the text and bytes of a
 * slice of large people are then a fraction of their size, not a second and third copy of it.
 */
const CSV_PIECE_CHARS = 256 * 1024;

/** The file in the clear: the header, then each batch as CSV (in slices when it holds personal information). */
async function* csv(cursor: Cursor<ReportRow>): AsyncGenerator<Buffer> {
  yield Buffer.from(job.header);
  for (;;) {
    const rows = await cursor.read(job.batchRows);
    if (rows.length === 0) return;
    if (job.metadataKeys) {
      const keys = job.metadataKeys;
      for (const slice of peopleSlices(rows)) {
        const people = await peopleOf(slice.map((r) => r.verification_id));
        yield* csvPieces(
          slice.map((r) => [...standardCells(r), ...personalCells(people.get(r.verification_id), keys)]),
        );
      }
    } else yield* csvPieces(rows.map(standardCells));
  }
}

/** Rows of cells as CSV bytes, in pieces of about CSV_PIECE_CHARS; counts the rows as they are encoded. */
function* csvPieces(rows: string[][]): Generator<Buffer> {
  let from = 0;
  let chars = 0;
  for (let i = 0; i < rows.length; i++) {
    for (const cell of rows[i]!) chars += cell.length;
    if (chars < CSV_PIECE_CHARS && i < rows.length - 1) continue;
    rowsRead += i + 1 - from;
    yield Buffer.from(csvLines(rows.slice(from, i + 1)));
    from = i + 1;
    chars = 0;
  }
}

/**
 * Packs bytes into parts of `partBytes`, each handed over (its memory transferred) when the main thread asks;
 * two buffers, filled again as the main thread gives them back.
 */
class PartPacker {
  private readonly free: ArrayBuffer[];
  private part: Uint8Array | undefined;
  private filled = 0;

  constructor(private readonly partBytes: number) {
    this.free = [new ArrayBuffer(partBytes), new ArrayBuffer(partBytes)];
  }

  async add(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      this.part ??= new Uint8Array(this.free.pop() ?? (await this.returned()));
      const n = Math.min(this.partBytes - this.filled, bytes.length - at);
      this.part.set(bytes.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.partBytes) await this.hand();
    }
  }

  async finish(): Promise<void> {
    if (this.filled > 0) await this.hand();
    await receive('next');
    port.postMessage({ type: 'end', rows: rowsRead } satisfies FromWorker);
  }

  private async hand(): Promise<void> {
    await receive('next');
    const bytes = this.part!.subarray(0, this.filled);
    port.postMessage({ type: 'part', bytes, rows: rowsRead } satisfies FromWorker, [
      bytes.buffer as ArrayBuffer,
    ]);
    this.part = undefined;
    this.filled = 0;
  }

  private async returned(): Promise<ArrayBuffer> {
    const message = await receive('recycle');
    if (message.type !== 'recycle') throw new Error(`expected a part back, got ${message.type}`);
    return message.buffer;
  }
}

async function run(): Promise<void> {
  const client = new pg.Client({ connectionString: job.databaseUrl, application_name: job.applicationName });
  await client.connect();
  try {
    const cursor = client.query(new Cursor<ReportRow>(job.sql, job.values));
    const cipher = createObjectCipher(Buffer.from(job.seal.masterKey), job.seal.purpose);
    const packer = new PartPacker(job.seal.partBytes);
    for await (const sealed of cipher.seal(csv(cursor), job.seal.objectKey)) await packer.add(sealed);
    await packer.finish();
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
