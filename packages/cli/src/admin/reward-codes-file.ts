import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Reads reward codes from a file, one per line (a CSV's first column also works); blank lines and lines
 * starting with # are skipped. Yields batches so that a file of a million codes never sits in memory whole
 * and each request stays under the API's per-call limit.
 */
export async function* readCodeBatches(path: string, batchSize: number): AsyncGenerator<string[]> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let batch: string[] = [];
  for await (const line of lines) {
    const code = line.split(',')[0]!.trim();
    if (!code || code.startsWith('#')) continue;
    batch.push(code);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
