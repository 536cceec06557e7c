import { spawn } from 'node:child_process';
import { Client } from 'pg';
import Cursor from 'pg-cursor';
import { verificationReportQuery } from '../../services/reports/src/repository/report-queries';

/**
 * The floors a report is compared with, in the same run on the same rows: the generator's own SELECT (its
 * query builder, imported) read in the bench process through a pg-cursor in batches of `batchRows`, as the
 * generator reads it, with no CSV and no upload; and Postgres writing the same rows as CSV itself (COPY TO
 * STDOUT through psql, when psql is on the PATH).
 */

/** What the report covers: the account's verifications started in [from, until), every program and mode. */
export interface ReportFilter {
  accountId: string;
  from: Date;
  until: Date;
}

const queryOf = (f: ReportFilter) =>
  verificationReportQuery('reports', { ...f, programIds: [], testMode: null });

/** Seconds to read every row of the report's SELECT through a cursor; answers the rows read too. */
export async function cursorRead(
  databaseUrl: string,
  filter: ReportFilter,
  batchRows: number,
): Promise<{ seconds: number; rows: number }> {
  const { sql, values } = queryOf(filter);
  const client = new Client({ connectionString: databaseUrl, application_name: 'bench-reports-baseline' });
  await client.connect();
  try {
    const started = process.hrtime.bigint();
    const cursor = client.query(new Cursor<Record<string, unknown>>(sql, values));
    let rows = 0;
    for (;;) {
      const batch = await cursor.read(batchRows);
      if (batch.length === 0) break;
      rows += batch.length;
    }
    await cursor.close();
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, rows };
  } finally {
    await client.end();
  }
}

/** A SQL literal of a query parameter (COPY takes no parameters). */
function literal(value: unknown): string {
  if (value instanceof Date) return `'${value.toISOString()}'::timestamptz`;
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`no literal for ${typeof value}`);
}

/**
 * Seconds for Postgres to write the report's rows as CSV (`COPY (select ...) TO STDOUT WITH (FORMAT csv)`)
 * to a psql client that only counts the bytes and lines; undefined when psql is not installed.
 */
export async function copyAsCsv(
  databaseUrl: string,
  filter: ReportFilter,
): Promise<{ seconds: number; lines: number; bytes: number } | undefined> {
  const { sql, values } = queryOf(filter);
  const inlined = sql.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
  const started = process.hrtime.bigint();
  const psql = spawn(
    'psql',
    [databaseUrl, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `COPY (${inlined}) TO STDOUT WITH (FORMAT csv)`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let lines = 0;
  let bytes = 0;
  let errors = '';
  psql.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    lines += countLines(chunk);
  });
  psql.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | 'missing'>((resolve) => {
    psql.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ENOENT' ? 'missing' : -1));
    psql.once('close', (status) => resolve(status ?? -1));
  });
  if (code === 'missing') return undefined;
  if (code !== 0) throw new Error(`psql COPY failed (${code}): ${errors}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, lines, bytes };
}

/** Line feeds in a chunk of CSV. */
export function countLines(chunk: Uint8Array): number {
  let lines = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  return lines;
}
