import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CopyBinaryValues } from '../repository/copy-binary';

/**
 * A report's file in the clear, as Postgres writes it (repository/report-copy.ts: a COPY whose values are
 * the report's CSV lines): the header, then the lines as they arrive, on a connection of its own for the
 * report's length. Each chunk read is trimmed of the framing in place and dies young; no row is ever a
 * JavaScript object, which is why a report without personal information needs no worker thread. Counts the
 * rows as they come. Breaking off the iteration (a lost claim, a failed upload) closes the connection, which
 * ends the COPY.
 */
export async function* copiedReport(
  databaseUrl: string,
  copy: { sql: string; header: string },
  counter: { rows: number },
): AsyncGenerator<Buffer> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'eligo-reports-copy' });
  await client.connect();
  // Ending the connection early makes the query fail after the loop has let go of the stream.
  client.on('error', () => undefined);
  const stream = client.query(copyTo(copy.sql));
  stream.on('error', () => undefined);
  const values = new CopyBinaryValues();
  try {
    yield Buffer.from(copy.header);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const bytes = values.take(chunk);
      counter.rows = values.rows;
      if (bytes.length > 0) yield bytes;
    }
    values.end();
  } finally {
    stream.destroy();
    await client.end().catch(() => undefined);
  }
}
