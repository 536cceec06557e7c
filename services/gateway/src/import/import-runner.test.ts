import { organizationsOrganizationV1, type organizationsV1 } from '@eligo/proto';
import { IMPORT_BATCH_SIZE, importRows, ImportStoppedError, MAX_REPORTED_ERRORS } from './import-runner';
import { ImportFileError } from './import-file';
import { BodyTooLargeError } from './import-stream';
import type { ParsedRow } from './organization-rows';

const good = (line: number): ParsedRow => ({
  line,
  organization: organizationsOrganizationV1.OrganizationInput.fromPartial({ externalKey: `k${line}` }),
});
const bad = (line: number): ParsedRow => ({ line, rejection: `bad ${line}` });

async function* rows(items: (ParsedRow | Error)[], pulled: number[] = []) {
  for (const item of items) {
    if (item instanceof Error) throw item;
    pulled.push(item.line);
    yield item;
  }
}

/** A service that creates every row except those whose line is in `refuse`, recording each batch. */
function fakeService(refuse: number[] = []) {
  const batches: number[][] = [];
  const send = async (batch: organizationsV1.ImportRow[]) => {
    batches.push(batch.map((r) => r.line));
    const rejected = batch
      .filter((r) => refuse.includes(r.line))
      .map((r) => ({ line: r.line, message: 'service says no' }));
    return { created: batch.length - rejected.length, updated: 0, unchanged: 0, rejected };
  };
  return { batches, send };
}

const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('importRows', () => {
  it('sends full batches, one at a time, and adds up the replies', async () => {
    const service = fakeService([3]);
    const summary = await importRows(rows([...lines(2, 1200).map(good), bad(1202)]), service.send);
    expect(service.batches.map((b) => b.length)).toEqual([IMPORT_BATCH_SIZE, IMPORT_BATCH_SIZE, 200]);
    expect(summary).toEqual({
      received: 1201,
      created: 1199,
      updated: 0,
      unchanged: 0,
      rejected: 2,
      errors: [
        { line: 3, message: 'service says no' },
        { line: 1202, message: 'bad 1202' },
      ],
    });
  });

  it('reads no further row while a batch is being stored (backpressure)', async () => {
    const pulled: number[] = [];
    let pulledWhenSent = -1;
    await importRows(rows(lines(1, IMPORT_BATCH_SIZE + 5).map(good), pulled), async (batch) => {
      if (pulledWhenSent < 0) pulledWhenSent = pulled.length;
      return { created: batch.length, updated: 0, unchanged: 0, rejected: [] };
    });
    expect(pulledWhenSent).toBe(IMPORT_BATCH_SIZE);
  });

  it('reports local and service rejections in line order, the first 100 only, and counts them all', async () => {
    const items = lines(1, 300).map((l) => (l % 2 === 0 ? bad(l) : good(l)));
    const service = fakeService(lines(1, 300).filter((l) => l % 2 === 1));
    const summary = await importRows(rows(items), service.send);
    expect(summary.rejected).toBe(300);
    expect(summary.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(summary.errors.map((e) => e.line)).toEqual(lines(1, 100));
  });

  it('stores the rows before a malformed part of the file, then stops with what it did', async () => {
    const service = fakeService();
    const stop = importRows(
      rows([good(2), bad(3), good(4), new ImportFileError('malformed CSV at line 5: x')]),
      service.send,
    );
    await expect(stop).rejects.toThrow(ImportStoppedError);
    const err = (await stop.catch((e: unknown) => e)) as ImportStoppedError;
    expect(service.batches).toEqual([[2, 4]]);
    expect(err.summary).toMatchObject({ received: 3, created: 2, rejected: 1 });
    expect(err.message).toMatch(
      /^malformed CSV at line 5: x; imported before stopping: 2 created, .*idempotent/,
    );
  });

  it('calls the service no more once the file is over the size limit', async () => {
    const service = fakeService();
    const items = [...lines(1, IMPORT_BATCH_SIZE + 3).map(good), new BodyTooLargeError(1000)];
    const err = (await importRows(rows(items), service.send).catch((e: unknown) => e)) as ImportStoppedError;
    expect(err).toBeInstanceOf(ImportStoppedError);
    expect(err.reason).toBeInstanceOf(BodyTooLargeError);
    expect(service.batches).toHaveLength(1);
    expect(err.summary.created).toBe(IMPORT_BATCH_SIZE);
  });

  it('lets a service failure through as it is', async () => {
    const failure = new Error('UNAVAILABLE');
    await expect(importRows(rows([good(1)]), () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
