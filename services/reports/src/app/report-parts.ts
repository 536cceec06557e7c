import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AppContext } from './context';
import type { FromWorker, ReportJob, ToWorker } from './report-worker-protocol';

/** The purpose report files are sealed for (their own key, derived from ELIGO_ENCRYPTION_KEY). */
export const REPORTS_PURPOSE = 'reports';

/**
 * The parts the worker hands over, and the part size the report's put asks of the store (PutOptions.partBytes),
 * so that each is sent as it is: the smallest S3 allows, since two of them are held whatever the file's size
 * (a 1M-row report of about 220 MB is 44 parts, far below S3's 10,000).
 */
export const REPORT_PART_BYTES = 5 * 1024 * 1024;

/**
 * The worker's script: beside this file once built; from the build when this file runs as TypeScript (the
 * service's own tests, which run after `npm run build` like every test here).
 */
function workerScript(): string {
  const built = join(__dirname, 'report-worker.js');
  if (existsSync(built)) return built;
  return resolve(__dirname, '../../dist/src/app/report-worker.js');
}

/**
 * A report's file, sealed, in parts of `app.reportWorker.partBytes`, made by a worker thread
 * (app/report-worker.ts) with a heap of its own, capped at `app.reportWorker.heapMb`: reading, CSV and
 * encryption then neither slow the requests this process serves (the CPU is another thread's) nor grow their
 * memory (the garbage is the worker's). For the raw store (ObjectStore.put with an async iterable): each part's
 * memory goes back to the worker when the store asks for the next one, having finished with it, so the file
 * passes through two buffers whatever its size. The main thread answers the worker's requests for personal
 * information with the verification service's client. Breaking off the iteration (a lost claim, an upload that
 * failed) or a worker that fails (its error, an exhausted heap) stops the worker; the failure is thrown to the
 * caller, which retries the report.
 */
export async function* reportParts(
  app: AppContext,
  job: Pick<ReportJob, 'sql' | 'values' | 'metadataKeys' | 'header'>,
  target: { accountId: string; objectKey: string },
  counter: { rows: number },
): AsyncGenerator<Buffer> {
  const worker = new Worker(workerScript(), {
    workerData: {
      ...job,
      databaseUrl: app.reportWorker.databaseUrl,
      applicationName: 'eligo-reports-worker',
      batchRows: app.reportBatchRows,
      seal: {
        masterKey: app.reportWorker.masterKey,
        purpose: REPORTS_PURPOSE,
        objectKey: target.objectKey,
        partBytes: app.reportWorker.partBytes,
      },
    } satisfies ReportJob,
    // A batch's garbage dies young: a small young generation (V8 would take 16 MiB semi-spaces) is
    // collected often and cheaply, and keeps the worker's share of the process's memory small.
    resourceLimits: { maxOldGenerationSizeMb: app.reportWorker.heapMb, maxYoungGenerationSizeMb: 4 },
  });
  // A failure is kept as { error } (an Error made by Node's worker internals may be of another realm).
  const results: (FromWorker | { error: unknown })[] = [];
  let wake: (() => void) | undefined;
  const deliver = (result: FromWorker | { error: unknown }) => {
    results.push(result);
    wake?.();
  };
  const post = (message: ToWorker, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  worker.on('message', (message: FromWorker) => {
    if (message.type !== 'people') return deliver(message);
    app.verification.personalInfo(target.accountId, message.ids).then(
      (people) => post({ type: 'people', people: [...people] }),
      (error: unknown) => deliver({ error }),
    );
  });
  worker.on('error', (error) => deliver({ error }));
  worker.on('exit', (code) => deliver({ error: new Error(`the report worker stopped (exit code ${code})`) }));
  const next = async (): Promise<FromWorker> => {
    while (results.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const result = results.shift()!;
    if ('error' in result) throw result.error;
    return result;
  };
  let lent: ArrayBuffer | undefined;
  try {
    for (;;) {
      // Asked again: the store is done with the part it had, whose memory goes back to be filled again.
      if (lent) post({ type: 'recycle', buffer: lent }, [lent]);
      lent = undefined;
      post({ type: 'next' });
      const result = await next();
      if (result.type === 'failed') throw new Error(`report worker: ${result.message}`);
      if (result.type === 'end') {
        counter.rows = result.rows;
        return;
      }
      if (result.type !== 'part') throw new Error(`the report worker sent ${result.type} out of turn`);
      counter.rows = result.rows;
      lent = result.bytes.buffer as ArrayBuffer;
      yield Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
    }
  } finally {
    await worker.terminate();
  }
}
