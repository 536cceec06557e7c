import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AppContext } from './context';
import type { FromWorker, ReportJob, ToWorker } from './report-worker-protocol';

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
 * A report's rows as CSV, batch by batch, made by a worker thread (app/report-worker.ts) with a heap of its
 * own, capped at `app.reportWorker.heapMb`: generation then neither slows the requests this process serves
 * (its CPU is another thread's) nor grows their heap (its garbage is collected in its own). The main thread
 * asks for one batch at a time, so the upload's pace holds the worker back (it reads one batch ahead), and
 * answers the worker's requests for personal information with the verification service's client. Breaking
 * off the iteration (a lost claim, an upload that failed) or a worker that fails (its error, an exhausted
 * heap) stops the worker; the failure is thrown to the caller, which retries the report.
 */
export async function* reportCsv(
  app: AppContext,
  job: Pick<ReportJob, 'sql' | 'values' | 'kind' | 'metadataKeys'>,
  accountId: string,
  counter: { rows: number },
): AsyncGenerator<Buffer> {
  const worker = new Worker(workerScript(), {
    workerData: {
      ...job,
      databaseUrl: app.reportWorker.databaseUrl,
      applicationName: 'eligo-reports-worker',
      batchRows: app.reportBatchRows,
    } satisfies ReportJob,
    // A batch's garbage dies young: a small young generation (V8 would take 16 MiB semi-spaces) is
    // collected often and cheaply, and keeps the worker's share of the process's memory small.
    resourceLimits: { maxOldGenerationSizeMb: app.reportWorker.heapMb, maxYoungGenerationSizeMb: 8 },
  });
  // A failure is kept as { error } (an Error made by Node's worker internals may be of another realm).
  const results: (FromWorker | { error: unknown })[] = [];
  let wake: (() => void) | undefined;
  const deliver = (result: FromWorker | { error: unknown }) => {
    results.push(result);
    wake?.();
  };
  const post = (message: ToWorker) => worker.postMessage(message);
  worker.on('message', (message: FromWorker) => {
    if (message.type !== 'people') return deliver(message);
    app.verification.personalInfo(accountId, message.ids).then(
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
  try {
    for (;;) {
      post({ type: 'next' });
      const result = await next();
      if (result.type === 'end') return;
      if (result.type === 'failed') throw new Error(`report worker: ${result.message}`);
      if (result.type !== 'csv') throw new Error(`the report worker sent ${result.type} out of turn`);
      counter.rows += result.rows;
      yield Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
    }
  } finally {
    await worker.terminate();
  }
}
