import knexFactory from 'knex';
import type { Logger } from '../logging/logger';
import { migrateSchema } from '../db/migrate';
import { missingTopicError, type BusLog, type LoggedMessage } from './bus-log';
import type { BusMessage } from './event-bus';
import { busLogMigration } from './postgres-bus-log-migration';
import { listenConnector } from './listen-connection';
import { PgListener } from './pg-listener';
import { assertSchemaName } from './sql-names';

export interface PostgresBusLogOptions {
  /** The database the process already has (the embedded Postgres in the all-in-one default). */
  url: string;
  /** The schema of the log's tables. */
  schema?: string;
  logger: Logger;
  poolMax?: number;
  /** Fallback when a NOTIFY from another process sharing the database is missed. */
  pollIntervalMs?: number;
  /** Messages older than this that every known group has consumed are deleted (Kafka's default: 7 days). */
  retentionMs?: number;
  /** How often retention runs; the first pass waits one interval, so that the groups of a restart rejoin first. */
  pruneIntervalMs?: number;
}

export const DEFAULT_BUS_SCHEMA = 'eligo_bus';
const DAY_MS = 86_400_000;

/**
 * The bus log of the embedded default, in Postgres, so that the in-process bus loses nothing when the
 * process stops or is killed: a message is committed before `append` resolves (so before the outbox relay
 * marks its row published), and a group resumes from the position it committed after its last handled
 * message. Tables: `topics` (name, next offset), `messages` (topic, offset, key, headers, value,
 * published_at) and `positions` (group, topic, next offset, updated_at).
 *
 * Retention works like Kafka's, with one difference in favour of durability: a message older than
 * `retentionMs` is deleted only once every known group has consumed it. A group is known while a member
 * in some process has joined it, and for `retentionMs` after it was last joined or committed (a gateway's
 * per-instance group of an earlier run is forgotten then).
 */
export function createPostgresBusLog(options: PostgresBusLogOptions): BusLog {
  const schema = assertSchemaName(options.schema ?? DEFAULT_BUS_SCHEMA);
  const retentionMs = options.retentionMs ?? 7 * DAY_MS;
  const db = knexFactory({
    client: 'pg',
    connection: { connectionString: options.url, application_name: 'eligo-event-bus' },
    pool: { min: 0, max: options.poolMax ?? 5, idleTimeoutMillis: 30_000 },
    // As the modules' pools: a database that is gone fails a read soon, so that stopping never waits long.
    acquireConnectionTimeout: 10_000,
  });
  const channel = `eligo_bus_${schema}`;
  const watchers: (() => void)[] = [];
  const listener = new PgListener({
    ...listenConnector(db),
    channel,
    logger: options.logger,
    onNotify: () => watchers.forEach((wake) => wake()),
  });
  /** Joins of this process per group and topic: retention keeps those groups whatever their last commit. */
  const held = new Map<string, number>();
  const slot = (groupId: string, topic: string): string => JSON.stringify([groupId, topic]);
  const table = (name: string) => db.withSchema(schema).table(name);
  const list = (values: unknown[]): string => values.map(() => '?').join(', ');
  let pruning: NodeJS.Timeout | undefined;
  let opening: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const open = async (): Promise<void> => {
    await migrateSchema(db, schema, [busLogMigration]);
    await listener.start(); // never throws: without LISTEN, readers fall back to polling
    pruning ??= setInterval(() => void prune(), options.pruneIntervalMs ?? 3_600_000).unref();
  };
  // Opened on first use and again after a failure (database not up yet), not in the constructor: building
  // the bus must not need the database, e.g. for `eligo migrate`, which never publishes.
  const ready = (): Promise<void> =>
    (opening ??= open().catch((err: unknown) => {
      opening = undefined;
      throw err;
    }));

  const prune = async (): Promise<void> => {
    try {
      const cutoff = new Date(Date.now() - retentionMs);
      const joined = [...held.keys()].map((k) => JSON.parse(k) as [string, string]);
      if (joined.length > 0) {
        await db.raw(
          `update ??.positions set updated_at = now() where (group_id, topic) in (${joined.map(() => '(?, ?)').join(', ')})`,
          [schema, ...joined.flat()],
        );
      }
      const groups = await table('positions').where('updated_at', '<', cutoff).delete();
      const pruned = await db.raw<{ rowCount: number }>(
        `delete from ??.messages m where m.published_at < ?
           and not exists (select 1 from ??.positions p where p.topic = m.topic and p.next_offset <= m."offset")`,
        [schema, cutoff, schema],
      );
      if (groups > 0 || pruned.rowCount > 0)
        options.logger.info({ groups, messages: pruned.rowCount }, 'event log retention applied');
    } catch (err) {
      options.logger.warn({ err }, 'event log retention failed; trying again next interval');
    }
  };

  return {
    pollIntervalMs: options.pollIntervalMs ?? 5_000,

    async ensureTopics(names) {
      await ready();
      if (names.length === 0) return;
      await table('topics')
        .insert(names.map((name) => ({ name })))
        .onConflict('name')
        .ignore();
    },

    async append(messages: BusMessage[]) {
      await ready();
      await db.transaction(async (trx) => {
        const counts = new Map<string, number>();
        for (const m of messages) counts.set(m.topic, (counts.get(m.topic) ?? 0) + 1);
        const next = new Map<string, number>();
        // A topic's row lock orders its appends: offsets commit in order, so a reader never passes one that
        // commits late. Topics are locked in name order, so that two batches cannot deadlock.
        for (const [topic, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
          const { rows } = await trx.raw<{ rows: { next_offset: string }[] }>(
            'update ??.topics set next_offset = next_offset + ? where name = ? returning next_offset',
            [schema, n, topic],
          );
          if (rows.length === 0) throw missingTopicError(topic);
          next.set(topic, Number(rows[0]!.next_offset) - n);
        }
        await trx
          .withSchema(schema)
          .table('messages')
          .insert(
            messages.map((m) => {
              const offset = next.get(m.topic)!;
              next.set(m.topic, offset + 1);
              return { topic: m.topic, offset, key: m.key, headers: m.headers, value: Buffer.from(m.value) };
            }),
          );
        await trx.raw('select pg_notify(?, ?)', [channel, '']); // delivered on commit, to other processes
      });
    },

    async join(groupId, topics, fromBeginning) {
      await ready();
      const known = new Set((await table('topics').whereIn('name', topics).pluck('name')) as string[]);
      const missing = topics.find((t) => !known.has(t));
      if (missing !== undefined) throw missingTopicError(missing);
      await db.raw(
        `insert into ??.positions (group_id, topic, next_offset)
         select ?::text, t.name, case when ?::boolean then coalesce(
           (select min(m."offset") from ??.messages m where m.topic = t.name), t.next_offset) else t.next_offset end
         from ??.topics t where t.name in (${list(topics)})
         on conflict (group_id, topic) do update set updated_at = now()`,
        [schema, groupId, fromBeginning, schema, schema, ...topics],
      );
      const rows: { topic: string; next_offset: string }[] = await table('positions')
        .where('group_id', groupId)
        .whereIn('topic', topics)
        .select('topic', 'next_offset');
      for (const t of topics) held.set(slot(groupId, t), (held.get(slot(groupId, t)) ?? 0) + 1);
      const at = new Map(rows.map((r) => [r.topic, Number(r.next_offset)]));
      return topics.map((t) => at.get(t)!);
    },

    release(groupId, topics) {
      for (const t of topics) {
        const left = (held.get(slot(groupId, t)) ?? 1) - 1;
        if (left > 0) held.set(slot(groupId, t), left);
        else held.delete(slot(groupId, t));
      }
    },

    async position(groupId, topic) {
      await ready();
      const row: { next_offset: string } | undefined = await table('positions')
        .where({ group_id: groupId, topic })
        .first('next_offset');
      return row ? Number(row.next_offset) : 0; // forgotten meanwhile: from the oldest retained message
    },

    async read(topic, offset, limit): Promise<LoggedMessage[]> {
      await ready();
      const rows: { offset: string; key: string; headers: Record<string, string>; value: Buffer }[] =
        await table('messages')
          .where('topic', topic)
          .andWhere('offset', '>=', offset)
          .orderBy('offset')
          .limit(limit)
          .select('offset', 'key', 'headers', 'value');
      return rows.map((r) => ({
        topic,
        offset: Number(r.offset),
        key: r.key,
        headers: r.headers,
        value: r.value,
      }));
    },

    async commit(groupId, topic, next) {
      await ready();
      await db.raw(
        `insert into ??.positions (group_id, topic, next_offset) values (?, ?, ?)
         on conflict (group_id, topic) do update
           set next_offset = greatest(positions.next_offset, excluded.next_offset), updated_at = now()`,
        [schema, groupId, topic, next],
      );
    },

    watch(onAppend) {
      watchers.push(onAppend);
    },

    close() {
      closing ??= (async () => {
        clearInterval(pruning);
        await opening?.catch(() => undefined);
        await listener.stop();
        await db.destroy();
      })();
      return closing;
    },
  };
}
