import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { parse } from 'csv-parse/sync';
import { createObjectCipher } from '@eligo/runtime/dist/crypto/object-cipher';
import type { AppContext } from '../src/app/context';
import { reportParts, REPORTS_PURPOSE } from '../src/app/report-parts';
import type { ReportJob } from '../src/app/report-worker-protocol';
import type { PersonalInfo } from '../src/domain/personal-info';

const databaseUrl = process.env.ELIGO_TEST_DATABASE_URL!;

/**
 * `count` projection-shaped rows, v1..v<count>, with a program name of `nameBytes` characters and the
 * metadata keys given.
 */
const rowsSql = (marker: string, nameBytes = 5, metadataKeys: string[] = []) => `
  select /* ${marker} */ 'v' || g as verification_id, 'p1' as program_id, repeat('x', ${nameBytes}) as program_name,
    null as tracking_id, 'student' as segment, null as sub_segment, false as test_mode,
    'success' as current_step, '{}'::text[] as error_ids, 'INSTANT' as verification_method,
    null as organization_id, null as organization_name, 0 as doc_upload_count, null as review_outcome,
    '{}'::text[] as rejection_reasons, '{${metadataKeys.join(',')}}'::text[] as metadata_keys, 0 as conversion_count,
    '{}'::jsonb as conversion_totals, '{}'::text[] as conversion_tags,
    '2026-01-01T00:00:00.000Z' as created, null as last_updated, null as completed
  from generate_series(1, $1::int) g order by g`;

const masterKey = randomBytes(32);
const objectKey = 'reports/a1/r1/lease.csv';
/** Small parts, so that a report of a few thousand rows goes through many of them (and each buffer again). */
const PART_BYTES = 64 * 1024;

const personOf = (id: string, metadata: Record<string, string> = { plan: `=${id}` }): PersonalInfo => ({
  firstName: `First ${id}`,
  lastName: 'Doe',
  email: `${id}@example.com`,
  phoneNumber: '',
  birthDate: '',
  postalCode: '',
  country: 'US',
  metadata,
});

/** The person of every other verification is unknown (its cells stay empty), unless `person` says. */
function context(
  asked: string[][],
  heapMb = 48,
  person = (id: string, i: number) => (i % 2 === 0 ? personOf(id) : undefined),
): AppContext {
  return {
    reportBatchRows: 1000,
    reportWorker: { databaseUrl, heapMb, masterKey, partBytes: PART_BYTES },
    verification: {
      personalInfo: async (_accountId: string, ids: readonly string[]) => {
        asked.push([...ids]);
        const known = ids.map((id, i) => [id, person(id, i)] as const);
        return new Map(known.filter((entry): entry is [string, PersonalInfo] => entry[1] !== undefined));
      },
    },
  } as unknown as AppContext;
}

type Job = Pick<ReportJob, 'sql' | 'values' | 'metadataKeys'>;

/** The worker's parts for `job`, each copied before the next is asked for (as a store finishes with each). */
async function parts(app: AppContext, job: Job, counter = { rows: 0 }): Promise<Buffer[]> {
  const out: Buffer[] = [];
  const target = { accountId: 'a1', objectKey };
  for await (const part of reportParts(app, { ...job, header: 'h1,h2\r\n' }, target, counter))
    out.push(Buffer.from(part));
  return out;
}

/** The file in the clear, as the encrypted store reads it back: fails if any part was not what was sealed. */
async function opened(sealed: Buffer[]): Promise<string> {
  const cipher = createObjectCipher(masterKey, REPORTS_PURPOSE);
  const chunks: Buffer[] = [];
  const source = (async function* () {
    yield* sealed;
  })();
  for await (const chunk of await cipher.open(source, objectKey)) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}

const rowsOf = (text: string) =>
  parse(text, { record_delimiter: '\r\n', relax_column_count: true }) as string[][];

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

  it('seals the header and every row as CSV in parts of the configured size, and counts them', async () => {
    const counter = { rows: 0 };
    const sealed = await parts(context([]), { sql: rowsSql('all'), values: [2500] }, counter);
    expect(sealed.length).toBeGreaterThan(2);
    expect(sealed.slice(0, -1).every((p) => p.length === PART_BYTES)).toBe(true);
    expect(counter.rows).toBe(2500);
    const text = await opened(sealed);
    expect(text.startsWith('h1,h2\r\n')).toBe(true);
    const rows = rowsOf(text).slice(1);
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

  it('hands each part over without a copy, and takes its memory back once the next is asked for', async () => {
    const job = { sql: rowsSql('recycled'), values: [3000] };
    const seen: Buffer[] = [];
    const copies: Buffer[] = [];
    for await (const part of reportParts(
      context([]),
      { ...job, header: '' },
      { accountId: 'a1', objectKey },
      {
        rows: 0,
      },
    )) {
      seen.push(part);
      copies.push(Buffer.from(part));
    }
    // Every part but the one in hand when the worker ended went back (transferred: detached here).
    expect(seen.slice(0, -1).every((p) => p.byteLength === 0)).toBe(true);
    expect(seen.length).toBeGreaterThan(4);
    expect(rowsOf(await opened(copies))).toHaveLength(3000);
  });

  it('asks the main thread for the personal information of each batch, in order', async () => {
    const asked: string[][] = [];
    const job = {
      sql: rowsSql('pii'),
      values: [1500],
      metadataKeys: ['plan'],
    };
    const rows = rowsOf(await opened(await parts(context(asked), job))).slice(1);
    expect(asked.map((ids) => ids.length)).toEqual([1000, 500]);
    expect(asked[0]![0]).toBe('v1');
    // The PII cells follow the 23 standard ones; metadata values are guarded like any text cell.
    expect(rows[0]!.slice(23)).toEqual(['First v1', 'Doe', 'v1@example.com', '', '', '', 'US', "'=v1"]);
    expect(rows[1]!.slice(23)).toEqual(['', '', '', '', '', '', '', '']);
  });

  it('writes a report of people with all the metadata the API allows within the default worker heap', async () => {
    // 50 keys of values of 1,024 characters (docs/api.md#limits), not Latin-1: 100 KB in memory per person,
    // 100 MB per batch of 1000, far more than the worker's default 32 MiB old space could hold at once.
    const keys = Array.from({ length: 50 }, (_, i) => `key${String(i).padStart(2, '0')}`);
    const asked: string[][] = [];
    const value = (id: string, key: string) => `${id}:${key}:`.padEnd(1024, 'ж');
    const metadataOf = (id: string) => Object.fromEntries(keys.map((k) => [k, value(id, k)]));
    const app = context(asked, 32, (id) => personOf(id, metadataOf(id)));
    const job = {
      sql: rowsSql('big-people', 5, keys),
      values: [1100],
      metadataKeys: keys,
    };
    // Lines rather than a CSV parser (110 MB): no cell here needs quoting.
    const lines = (await opened(await parts(app, job))).split('\r\n');
    expect(lines).toHaveLength(1 + 1100 + 1);
    // 98 people at a time (each weighs 51: the projection knows its 50 metadata keys).
    expect(asked.map((ids) => ids.length)).toEqual([...Array(10).fill(98), 20, 98, 2]);
    expect(lines[1100]!.startsWith('v1100,')).toBe(true);
    expect(lines[1100]!.endsWith(`,${keys.map((k) => value('v1100', k)).join(',')}`)).toBe(true);
  }, 60_000);

  it('throws what failed in the worker, and closes its connection', async () => {
    const marker = `fails-${randomUUID()}`;
    const job = { sql: `select /* ${marker} */ 1 / (0 * $1::int) as verification_id`, values: [1] };
    await expect(parts(context([]), job)).rejects.toThrow(/report worker: division by zero/);
    expect(await connectionsRunning(marker)).toBe(0);
  });

  it('stops the worker and closes its connection when the caller breaks off', async () => {
    const marker = `breaks-${randomUUID()}`;
    const job = { sql: rowsSql(marker), values: [100_000] };
    const target = { accountId: 'a1', objectKey };
    for await (const part of reportParts(context([]), { ...job, header: '' }, target, { rows: 0 })) {
      expect(part.length).toBe(PART_BYTES);
      expect(await connectionsRunning(marker)).toBe(1);
      break;
    }
    for (let i = 0; i < 50 && (await connectionsRunning(marker)) > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await connectionsRunning(marker)).toBe(0);
  });

  it('fails a report whose batch does not fit the worker heap, without harm to this process', async () => {
    // 200 rows of 1 MB each in one batch: far over a 16 MiB old space.
    const job = { sql: rowsSql('big', 1_000_000), values: [200] };
    await expect(parts(context([], 16), job)).rejects.toThrow(/memory|exit code/i);
    // This process goes on: the next report works.
    const after = await parts(context([]), { sql: rowsSql('after'), values: [10] });
    expect(rowsOf(await opened(after))).toHaveLength(11);
  });
});
