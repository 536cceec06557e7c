import Cursor from 'pg-cursor';
import type { PoolClient } from 'pg';
import type { Knex } from '@eligo/runtime';

/**
 * Reads a query's rows in batches through a server-side cursor on one pooled connection, so a report of a
 * million rows holds one batch in memory at a time. The connection goes back to the pool when the
 * iteration ends, however it ends.
 */
export async function* cursorBatches<T>(
  db: Knex,
  sql: string,
  values: readonly unknown[],
  batchRows: number,
): AsyncGenerator<T[]> {
  const connection = (await db.client.acquireConnection()) as PoolClient;
  const cursor = connection.query(new Cursor<T>(sql, values as unknown[]));
  try {
    for (;;) {
      const rows = await cursor.read(batchRows);
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await cursor.close().catch(() => undefined);
    await db.client.releaseConnection(connection);
  }
}
