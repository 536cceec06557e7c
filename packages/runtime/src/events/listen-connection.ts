import type { Knex } from 'knex';
import { Client, type ClientConfig } from 'pg';
import type { PgListenerOptions } from './pg-listener';

/**
 * How a PgListener opens its dedicated LISTEN session: with `config`, a new client of its own; without, one
 * more raw connection of `db`, outside its pool, opened with the same settings.
 */
export function listenConnector(
  db: Knex,
  config?: string | ClientConfig,
): Pick<PgListenerOptions, 'connect' | 'close'> {
  if (config === undefined) {
    const client = db.client as Knex.Client;
    return {
      connect: () => client.acquireRawConnection() as Promise<Client>,
      close: (connection) => client.destroyRawConnection(connection),
    };
  }
  return {
    connect: async () => {
      // keepAlive: a half-open TCP connection would otherwise look alive and never deliver a NOTIFY.
      const connection = new Client({
        keepAlive: true,
        ...(typeof config === 'string' ? { connectionString: config } : config),
      });
      connection.on('error', () => undefined); // errors before PgListener attaches its handlers
      await connection.connect();
      return connection;
    },
    close: (connection) => connection.end(),
  };
}
