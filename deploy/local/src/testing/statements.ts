import pg from 'pg';

/**
 * A statement a module sent: its text, its parameters, which of the pool's connections sent it, and whether
 * it was sent as a named (prepared) statement.
 */
export interface SentStatement {
  connection: number;
  sql: string;
  values: readonly unknown[];
  prepared: boolean;
}

/**
 * What a module of this process sent to Postgres while `work` ran, in order, BEGIN and COMMIT included (its
 * pool's connections carry the application name `eligo-<module>`): for tests that a path takes the round
 * trips it should. The module's relay, consumers and jobs send theirs meanwhile too; transactionsOf picks a
 * path's own. pg's Client.query is wrapped for the duration; the statements go through as they were.
 */
export async function statementsOf(module: string, work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const connections = new WeakMap<object, number>();
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = client.query;
  client.query = function (this: { connectionParameters?: { application_name?: string } }, ...args) {
    if (this.connectionParameters?.application_name === `eligo-${module}`) {
      if (!connections.has(this)) connections.set(this, sent.length);
      const config = args[0] as string | { text?: string; values?: unknown[]; name?: string } | undefined;
      const values =
        (typeof config === 'object' && config?.values) || (Array.isArray(args[1]) ? args[1] : []);
      const sql = typeof config === 'string' ? config : String(config?.text);
      const prepared = typeof config === 'object' && Boolean(config?.name);
      sent.push({ connection: connections.get(this)!, sql, values, prepared });
    }
    return query.apply(this, args);
  };
  try {
    await work();
  } finally {
    client.query = query;
  }
  return sent;
}

/**
 * The transactions among `sent` that passed `value` to a statement, in the order they began, each as its
 * statements' texts (a statement outside BEGIN and COMMIT is a transaction by itself).
 */
export function transactionsOf(sent: readonly SentStatement[], value: unknown): string[][] {
  const open = new Map<number, SentStatement[]>();
  const all: SentStatement[][] = [];
  for (const statement of sent) {
    const current = open.get(statement.connection);
    if (current) current.push(statement);
    else if (statement.sql === 'BEGIN') open.set(statement.connection, [statement]);
    else all.push([statement]);
    if (current && /^(COMMIT|ROLLBACK)$/.test(statement.sql)) {
      all.push(current);
      open.delete(statement.connection);
    }
  }
  all.push(...open.values());
  return all
    .filter((trx) => trx.some((s) => s.values.includes(value)))
    .sort((a, b) => sent.indexOf(a[0]!) - sent.indexOf(b[0]!))
    .map((trx) => trx.map((s) => s.sql));
}
