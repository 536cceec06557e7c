import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { parse } from 'csv-parse/sync';
import type { AppContext } from '../src/app/context';
import { reportCsv } from '../src/app/report-csv';
import type { PersonalInfo } from '../src/domain/personal-info';

const databaseUrl = process.env.ELIGO_TEST_DATABASE_URL!;

/** `count` projection-shaped rows, v1..v<count>, with a program name of `nameBytes` characters. */
const rowsSql = (marker: string, nameBytes = 5) => `
  select /* ${marker} */ 'v' || g as verification_id, 'p1' as program_id, repeat('x', ${nameBytes}) as program_name,
    null as tracking_id, 'student' as segment, null as sub_segment, false as test_mode,
    'success' as current_step, '{}'::text[] as error_ids, 'INSTANT' as verification_method,
    null as organization_id, null as organization_name, 0 as doc_upload_count, null as review_outcome,
    '{}'::text[] as rejection_reasons, '{}'::text[] as metadata_keys, 0 as conversion_count,
    '{}'::jsonb as conversion_totals, '{}'::text[] as conversion_tags,
    '2026-01-01T00:00:00.000Z' as created, null as last_updated, null as completed
  from generate_series(1, $1::int) g order by g`;

function context(asked: string[][], heapMb = 48): AppContext {
  const person = (id: string): PersonalInfo => ({
    firstName: `First ${id}`,
    lastName: 'Doe',
    email: `${id}@example.com`,
    phoneNumber: '',
    birthDate: '',
    postalCode: '',
    country: 'US',
    metadata: { plan: `=${id}` },
  });
  return {
    reportBatchRows: 1000,
    reportWorker: { databaseUrl, heapMb },
    verification: {
      personalInfo: async (_accountId: string, ids: readonly string[]) => {
        asked.push([...ids]);
        // The person of every other verification is unknown: its cells stay empty.
        return new Map(ids.filter((_, i) => i % 2 === 0).map((id) => [id, person(id)]));
      },
    },
  } as unknown as AppContext;
}

async function collect(batches: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

/**
 * A report's CSV is made by a worker thread with a heap of its own (app/report-csv.ts): the rows arrive in
 * batches as the caller asks for them, personal information comes from the main thread, and a worker that
 * fails or is no longer wanted ends, its connection closed.
 */
describe('the report worker', () => {
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(() => db.end());

  const connectionsRunning = async (marker: string): Promise<number> => {
    const { rows } = await db.query(
      `select count(*)::int as n from pg_stat_activity where query like $1 and pid <> pg_backend_pid()`,
      [`%${marker}%`],
    );
    return rows[0].n;
  };

  it('writes every row as CSV, one batch per read, and counts them', async () => {
    const counter = { rows: 0 };
    const batches = await collect(
      reportCsv(context([]), { sql: rowsSql('all'), values: [2500], kind: 'VERIFICATION' }, 'a1', counter),
    );
    expect(batches).toHaveLength(3);
    expect(counter.rows).toBe(2500);
    const rows = parse(Buffer.concat(batches).toString(), { record_delimiter: '\r\n' }) as string[][];
    expect(rows).toHaveLength(2500);
    expect(rows[0]!.slice(0, 9)).toEqual([
      'v1',
      'p1',
      'xxxxx',
      '',
      'student',
      '',
      'LIVE',
      'success',
      'SUCCESS',
    ]);
    expect(rows[2499]![0]).toBe('v2500');
  });

  it('asks the main thread for the personal information of each batch, in order', async () => {
    const asked: string[][] = [];
    const job = {
      sql: rowsSql('pii'),
      values: [1500],
      kind: 'VERIFICATION' as const,
      metadataKeys: ['plan'],
    };
    const csv = Buffer.concat(await collect(reportCsv(context(asked), job, 'a1', { rows: 0 }))).toString();
    expect(asked.map((ids) => ids.length)).toEqual([1000, 500]);
    expect(asked[0]![0]).toBe('v1');
    const rows = parse(csv, { record_delimiter: '\r\n' }) as string[][];
    // The PII cells follow the 23 standard ones; metadata values are guarded like any text cell.
    expect(rows[0]!.slice(23)).toEqual(['First v1', 'Doe', 'v1@example.com', '', '', '', 'US', "'=v1"]);
    expect(rows[1]!.slice(23)).toEqual(['', '', '', '', '', '', '', '']);
  });

  it('throws what failed in the worker, and closes its connection', async () => {
    const marker = `fails-${randomUUID()}`;
    const job = { sql: `select /* ${marker} */ 1 / (0 * $1::int) as verification_id`, values: [1] };
    await expect(
      collect(reportCsv(context([]), { ...job, kind: 'VERIFICATION' }, 'a1', { rows: 0 })),
    ).rejects.toThrow(/report worker: division by zero/);
    expect(await connectionsRunning(marker)).toBe(0);
  });

  it('stops the worker and closes its connection when the caller breaks off', async () => {
    const marker = `breaks-${randomUUID()}`;
    const job = { sql: rowsSql(marker), values: [100_000], kind: 'VERIFICATION' as const };
    for await (const batch of reportCsv(context([]), job, 'a1', { rows: 0 })) {
      expect(batch.length).toBeGreaterThan(0);
      expect(await connectionsRunning(marker)).toBe(1);
      break;
    }
    for (let i = 0; i < 50 && (await connectionsRunning(marker)) > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await connectionsRunning(marker)).toBe(0);
  });

  it('fails a report whose batch does not fit the worker heap, without harm to this process', async () => {
    // 200 rows of 1 MB each in one batch: far over a 16 MiB old space.
    const job = { sql: rowsSql('big', 1_000_000), values: [200], kind: 'VERIFICATION' as const };
    await expect(collect(reportCsv(context([], 16), job, 'a1', { rows: 0 }))).rejects.toThrow(
      /memory|exit code/i,
    );
    // This process goes on: the next report works.
    const after = await collect(
      reportCsv(context([]), { sql: rowsSql('after'), values: [10], kind: 'VERIFICATION' }, 'a1', {
        rows: 0,
      }),
    );
    expect(after).toHaveLength(1);
  });
});
