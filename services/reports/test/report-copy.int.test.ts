import { createTestDatabase } from '@eligo/local-infra';
import { createDb, migrateSchema, serviceBaseMigrations, type Knex } from '@eligo/runtime';
import pg from 'pg';
import { migrations } from '../migrations';
import { copiedReport } from '../src/app/report-copy';
import { csvLines } from '../src/domain/csv';
import { reverifyCells, standardCells } from '../src/domain/report-cells';
import type { ReportRow, ReverifyReportRow } from '../src/domain/report-row';
import { CopyBinaryValues } from '../src/repository/copy-binary';
import { reverifyReportCopy, verificationReportCopy } from '../src/repository/report-copy';
import { reverifyReportQuery, verificationReportQuery } from '../src/repository/report-queries';

/**
 * Reports without personal information are written by Postgres (repository/report-copy.ts); reports with it
 * by the worker's JavaScript (standardCells, csvLines). Both must give the same bytes for the same rows, the
 * edge cases of CSV and of the formula guard above all.
 */
describe('reports written by Postgres', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Knex;
  const account = 'a'.repeat(24);
  const from = new Date('2026-01-01T00:00:00Z');
  const until = new Date('2026-02-01T00:00:00Z');
  const filter = {
    accountId: account,
    from,
    until,
    programIds: [] as string[],
    testMode: null as boolean | null,
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, schema: 'reports', poolMax: 2, applicationName: 'report-copy-it' });
    await migrateSchema(db, 'reports', [...serviceBaseMigrations, ...migrations]);
  }, 60_000);

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await db('reverify_items').withSchema('reports').delete();
    await db('reverify_batches').withSchema('reports').delete();
    await db('verification_rows').withSchema('reports').delete();
    await db('programs').withSchema('reports').delete();
  });

  /** The report's lines as the worker makes them, from the rows of the same filter. */
  async function byJavaScript(f = filter): Promise<string> {
    const { sql, values } = verificationReportQuery('reports', f);
    const { rows } = await db.raw<{ rows: ReportRow[] }>(sql.replace(/\$(\d+)/g, '?'), values as never[]);
    return csvLines(rows.map(standardCells));
  }

  async function byPostgres(f = filter, header = ''): Promise<{ csv: string; rows: number }> {
    return copied(verificationReportCopy('reports', f), header);
  }

  async function copied(sql: string, header = ''): Promise<{ csv: string; rows: number }> {
    const counter = { rows: 0 };
    const chunks: Buffer[] = [];
    for await (const chunk of copiedReport(database.url, { sql, header }, counter))
      chunks.push(Buffer.from(chunk));
    return { csv: Buffer.concat(chunks).toString(), rows: counter.rows };
  }

  let sequence = 0;
  const insert = (rows: Record<string, unknown>[]) =>
    db('verification_rows')
      .withSchema('reports')
      .insert(
        rows.map((row) => ({
          verification_id: `v${String(++sequence).padStart(23, '0')}`,
          account_id: account,
          created_at: new Date(from.getTime() + sequence * 1000),
          ...row,
        })),
      );

  it('writes the cells of every kind as the JavaScript encoder does, the edge cases of CSV included', async () => {
    await db('programs')
      .withSchema('reports')
      .insert([
        { program_id: 'p1', account_id: account, name: '=Summer, "best" offer' },
        { program_id: 'p2', account_id: account, name: 'Plain' },
      ]);
    await insert([
      {}, // nothing known but the start: nulls everywhere
      {
        program_id: 'p1',
        tracking_id: '=HYPERLINK("x")',
        segment: 'student',
        sub_segment: 'college',
        test_mode: true,
        current_step: 'success',
        verification_method: 'INSTANT',
        organization_id: 4321,
        organization_name: '@home, inc.',
        doc_upload_count: 2,
        review_outcome: 'APPROVED',
        metadata_keys: ['order', '=sum', 'a|=b', '', 'tab\tin'],
        conversion_count: 3,
        conversion_totals: { USD: '12.5000', EUR: '3.0000', JPY: '1000.1234', GBP: '0.1000' },
        conversion_tags: ['+1', 'two words', 'line\nbreak', 'é😀'],
        step_changed_at: new Date('2026-01-05T10:11:12.345Z'),
        completed_at: new Date('2026-01-05T10:11:12.999Z'),
      },
      { program_id: 'p2', test_mode: false, current_step: 'error', error_ids: ['expiredVerification'] },
      { current_step: 'error', error_ids: ['invalidBirthDate', 'notApproved'], tracking_id: '-1' },
      { current_step: 'pending', tracking_id: '\ttabbed', rejection_reasons: ['a', 'b'] },
      { current_step: 'docUpload', tracking_id: '\rcarriage', organization_name: 'quote " inside' },
      {
        current_step: 'collectStudentPersonalInfo',
        tracking_id: 'back\\slash',
        conversion_tags: ['=a', '=b'],
      },
      { tracking_id: '', organization_name: 'new\r\nline', metadata_keys: ['|', '||='] },
    ]);
    const expected = await byJavaScript();
    expect(expected.split('\r\n').length).toBeGreaterThan(8);
    const written = await byPostgres();
    expect(written.csv).toBe(expected);
    expect(written.rows).toBe(8);
  });

  it("writes a re-verification batch's report as the JavaScript encoder does, in request order", async () => {
    await db('programs')
      .withSchema('reports')
      .insert({ program_id: 'p1', account_id: account, name: '=Summer, "best" offer' });
    await insert([
      { program_id: 'p1', current_step: 'success', tracking_id: '+t', organization_name: 'a, "b"' },
      { current_step: 'error', error_ids: ['expiredVerification'], metadata_keys: ['=k'] },
    ]);
    const [known, expired] = [
      `v${String(sequence - 1).padStart(23, '0')}`,
      `v${String(sequence).padStart(23, '0')}`,
    ];
    // Another account's verification: the projection's row is not shown for it.
    await db('verification_rows')
      .withSchema('reports')
      .insert({
        verification_id: 'o'.repeat(24),
        account_id: 'b'.repeat(24),
        created_at: from,
        segment: 'x',
      });
    const batch = 'c'.repeat(24);
    await db('reverify_batches')
      .withSchema('reports')
      .insert({ id: batch, account_id: account, program_id: 'p1', status: 'IN_PROGRESS', total_records: 5 });
    const processed = new Date('2026-01-09T01:02:03.456Z');
    await db('reverify_items')
      .withSchema('reports')
      .insert(
        [
          {
            position: 3,
            verification_id: known,
            status: 'DONE',
            outcome: 'ELIGIBLE',
            organization_id: 77,
            processed_at: processed,
          },
          {
            position: 0,
            verification_id: expired,
            status: 'DONE',
            outcome: 'INELIGIBLE',
            error_ids: ['a', 'b'],
            processed_at: processed,
          },
          {
            position: 1,
            verification_id: '=unknown0000000000000000',
            status: 'DONE',
            outcome: 'NOT_FOUND',
            processed_at: processed,
          },
          { position: 2, verification_id: 'o'.repeat(24) },
          { position: 4, verification_id: 'x,"y"\r\nz' },
        ].map((item) => ({ batch_id: batch, ...item })),
      );
    // Another batch's item stays out.
    await db('reverify_batches')
      .withSchema('reports')
      .insert({
        id: 'd'.repeat(24),
        account_id: account,
        program_id: 'p1',
        status: 'PENDING',
        total_records: 1,
      });
    await db('reverify_items')
      .withSchema('reports')
      .insert({ batch_id: 'd'.repeat(24), position: 0, verification_id: known });

    const { sql, values } = reverifyReportQuery('reports', batch);
    const { rows } = await db.raw<{ rows: ReverifyReportRow[] }>(
      sql.replace(/\$(\d+)/g, '?'),
      values as never[],
    );
    const expected = csvLines(rows.map(reverifyCells));
    expect(rows.map((r) => r.item_verification_id)).toEqual([
      expired,
      '=unknown0000000000000000',
      'o'.repeat(24),
      known,
      'x,"y"\r\nz',
    ]);
    expect(expected).toContain('ELIGIBLE');
    const written = await copied(reverifyReportCopy('reports', batch), 'h\r\n');
    expect(written.csv).toBe(`h\r\n${expected}`);
    expect(written.rows).toBe(5);
  });

  it('gives the same bytes for thousands of rows of random text', async () => {
    const alphabet = [
      'a',
      'Z',
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      '\n',
      '"',
      ',',
      '|',
      ' ',
      "'",
      '\\',
      'é',
      '😀',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = () => Array.from({ length: random(6) }, () => alphabet[random(alphabet.length)]).join('');
    const maybe = () => (random(4) === 0 ? null : word());
    const rows = Array.from({ length: 3000 }, () => ({
      tracking_id: maybe(),
      organization_name: maybe(),
      segment: maybe(),
      current_step: ['success', 'error', 'pending', 'docUpload', null][random(5)],
      error_ids: Array.from({ length: random(3) }, word),
      metadata_keys: Array.from({ length: random(4) }, word),
      conversion_tags: Array.from({ length: random(3) }, word),
      conversion_totals: random(3) === 0 ? { CHF: `${random(1000)}.${random(10000)}` } : {},
    }));
    for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
    expect((await byPostgres()).csv).toBe(await byJavaScript());
  });

  it('reads only the filter: account, time range, programs and mode; the header comes first', async () => {
    await db('programs')
      .withSchema('reports')
      .insert({ program_id: "p'1", account_id: account, name: 'Quoted id' });
    await insert([
      { program_id: "p'1", test_mode: true },
      { program_id: 'p2', test_mode: false },
      { program_id: "p'1", test_mode: false, account_id: 'b'.repeat(24) },
      { program_id: "p'1", test_mode: false, created_at: until },
    ]);
    const live = { ...filter, programIds: ["p'1", 'p3'], testMode: true };
    const expected = await byJavaScript(live);
    expect(expected.split('\r\n')).toHaveLength(2);
    expect((await byPostgres(live, 'h1,h2\r\n')).csv).toBe(`h1,h2\r\n${expected}`);
    expect((await byPostgres({ ...filter, programIds: ['p9'] }, 'h\r\n')).csv).toBe('h\r\n');
  });

  it('takes the framing out of a binary COPY cut anywhere, and refuses what it is not', async () => {
    const raw = await copyBytes(
      `copy (select 'line ' || g || E'\\r\\n' from generate_series(1, 300) g union all select null) to stdout (format binary)`,
    );
    const whole = new CopyBinaryValues();
    // take works in place: each call gets a copy of the bytes, as each socket read is a buffer of its own.
    const expected = whole.take(Buffer.from(raw)).toString();
    whole.end();
    expect(expected).toBe(Array.from({ length: 300 }, (_, i) => `line ${i + 1}\r\n`).join(''));
    expect(whole.rows).toBe(301);
    for (const size of [1, 2, 5, 7, 19, 64]) {
      const values = new CopyBinaryValues();
      const pieces: Buffer[] = [];
      for (let at = 0; at < raw.length; at += size)
        pieces.push(Buffer.from(values.take(Buffer.from(raw.subarray(at, at + size)))));
      values.end();
      expect(Buffer.concat(pieces).toString()).toBe(expected);
    }
    const cut = new CopyBinaryValues();
    cut.take(Buffer.from(raw.subarray(0, raw.length - 2)));
    expect(() => cut.end()).toThrow('before its trailer');
    expect(() => new CopyBinaryValues().take(Buffer.from('not a copy stream at all'))).toThrow(
      'not a binary COPY stream',
    );
    const two = await copyBytes(`copy (select 'a', 'b') to stdout (format binary)`);
    expect(() => new CopyBinaryValues().take(two)).toThrow('a binary COPY row of 2 columns, not 1');
    expect(() => new CopyBinaryValues().take(Buffer.concat([raw, Buffer.from([0])]))).toThrow(
      'bytes after the end',
    );
  });

  it('ends the COPY and its connection when the reader stops early', async () => {
    await insert(Array.from({ length: 2000 }, () => ({ tracking_id: 'x'.repeat(200) })));
    const counter = { rows: 0 };
    const report = copiedReport(
      database.url,
      { sql: verificationReportCopy('reports', filter), header: 'h\r\n' },
      counter,
    );
    expect((await report.next()).value.toString()).toBe('h\r\n');
    await report.next();
    await report.return(undefined);
    // The server sees the connection go a moment after the client closed it.
    const open = async () =>
      (
        await db.raw<{ rows: unknown[] }>(
          `select 1 from pg_stat_activity where application_name = 'eligo-reports-copy' and datname = current_database()`,
        )
      ).rows.length;
    for (let i = 0; i < 50 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await open()).toBe(0);
  });

  it('throws what Postgres refused, before the first row or in the middle of the rows', async () => {
    const read = async (sql: string) => {
      for await (const chunk of copiedReport(database.url, { sql, header: 'h\r\n' }, { rows: 0 })) void chunk;
    };
    await expect(read('copy (select nope from nowhere) to stdout (format binary)')).rejects.toThrow(
      'relation "nowhere" does not exist',
    );
    await expect(
      read(
        `copy (select case when g < 50000 then 'line ' || g else (1 / (g - g))::text end ` +
          `from generate_series(1, 60000) g) to stdout (format binary)`,
      ),
    ).rejects.toThrow('division by zero');
  });

  /** What Postgres sends for a COPY, framing included. */
  async function copyBytes(sql: string): Promise<Buffer> {
    const { to } = await import('pg-copy-streams');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of client.query(to(sql)) as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks);
    } finally {
      await client.end();
    }
  }
});
