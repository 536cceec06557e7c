import pg from 'pg';
import type { Knex } from 'knex';
import { parseCloudEventHeaders } from '../../src/events/cloudevents';
import { enqueueEvent, enqueueEvents, writeWithEvents } from '../../src/events/outbox';
import { outboxChannel } from '../../src/events/sql-names';
import { createEventSchema, dropSchema, randomName, testDb, testInfra, waitFor } from './helpers';

const infra = testInfra();

/**
 * enqueueEvent writes each event with one statement, enqueueEvents several with one, and the relay is woken
 * with one NOTIFY per transaction, sent in its first outbox statement: a verification flow writes two events
 * per transaction, and every statement is a round trip on the hot path.
 */
describe('outbox writes', () => {
  let db: Knex;
  let listener: pg.Client;
  let schema: string;
  const notifications: string[] = [];

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    schema = randomName('outbox_notify_');
    await createEventSchema(db, schema);
    await db.schema.withSchema(schema).createTable('changes', (t) => t.text('key').primary());
    listener = new pg.Client({ connectionString: infra.databaseUrl });
    await listener.connect();
    listener.on('notification', (n) => notifications.push(n.channel));
    await listener.query(`listen "${outboxChannel(schema)}"`);
  });

  afterAll(async () => {
    await listener.end();
    await dropSchema(db, schema);
    await db.destroy();
  });

  beforeEach(() => {
    notifications.length = 0;
  });

  const event = (subject: string) => ({
    service: 'verification',
    eventName: 'VerificationStepChanged',
    subject,
    payload: new Uint8Array([1, 2, 3]),
  });

  it('sends one statement per event and one NOTIFY per committed transaction', async () => {
    const statements: string[] = [];
    const ids = await db.transaction(async (trx) => {
      trx.on('query', (q: { sql: string }) => {
        if (!/^(begin|commit)/i.test(q.sql)) statements.push(q.sql);
      });
      const written: string[] = [];
      for (const subject of ['v-1', 'v-2', 'v-3'])
        written.push(await enqueueEvent(trx, schema, event(subject)));
      return written;
    });
    expect(statements).toHaveLength(3);
    await waitFor('the NOTIFY of the commit', async () => notifications.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(notifications).toEqual([outboxChannel(schema)]);

    const rows = await db.withSchema(schema).table('outbox').orderBy('id');
    expect(rows.map((r) => r.key)).toEqual(['v-1', 'v-2', 'v-3']);
    expect(rows.map((r) => parseCloudEventHeaders(r.headers).id)).toEqual(ids);
    expect(rows[0]).toMatchObject({
      topic: 'eligo.verification.events.v1',
      event_type: 'eligo.verification.v1.VerificationStepChanged',
      payload: Buffer.from([1, 2, 3]),
      published_at: null,
    });
  });

  it('records several events with one statement, in their order, with one NOTIFY', async () => {
    const statements: string[] = [];
    const subjects = ['w-1', 'w-2', 'w-3'];
    const [ids, later] = await db.transaction(async (trx) => {
      trx.on('query', (q: { sql: string }) => {
        if (!/^(begin|commit)/i.test(q.sql)) statements.push(q.sql);
      });
      const first = await enqueueEvents(trx, schema, subjects.map(event));
      return [first, await enqueueEvents(trx, schema, [event('w-4'), event('w-5')])] as const;
    });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain('pg_notify');
    expect(statements[1]).not.toContain('pg_notify');
    expect(await enqueueEvents(db as unknown as Knex.Transaction, schema, [])).toEqual([]);
    await waitFor('the NOTIFY of the commit', async () => notifications.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(notifications).toEqual([outboxChannel(schema)]);

    const rows = await db.withSchema(schema).table('outbox').whereLike('key', 'w-%').orderBy('id');
    expect(rows.map((r) => r.key)).toEqual(['w-1', 'w-2', 'w-3', 'w-4', 'w-5']);
    expect(rows.map((r) => parseCloudEventHeaders(r.headers).id)).toEqual([...ids, ...later]);
    expect(new Set(rows.map((r) => parseCloudEventHeaders(r.headers).id)).size).toBe(5);
  });

  it('neither stores nor announces the events of a transaction that rolls back', async () => {
    const before = await db.withSchema(schema).table('outbox').count<{ count: string }[]>({ count: '*' });
    await expect(
      db.transaction(async (trx) => {
        await enqueueEvent(trx, schema, event('v-gone-1'));
        await enqueueEvent(trx, schema, event('v-gone-2'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notifications).toEqual([]);
    const after = await db.withSchema(schema).table('outbox').count<{ count: string }[]>({ count: '*' });
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it('announces each transaction of its own', async () => {
    await db.transaction((trx) => enqueueEvent(trx, schema, event('v-a')));
    await db.transaction((trx) => enqueueEvent(trx, schema, event('v-b')));
    await waitFor('two NOTIFYs', async () => notifications.length === 2);
  });
  /** The statements sent on the pool by `work`, BEGIN and COMMIT included. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const sent: string[] = [];
    const record = (q: { sql: string }) => sent.push(q.sql);
    db.on('query', record);
    try {
      await work();
    } finally {
      db.off('query', record);
    }
    return sent;
  }
  const change = (key: string) => db.withSchema(schema).table('changes').insert({ key });

  it('writes a change and its events with one statement, a transaction by itself on the pool', async () => {
    let ids: string[] = [];
    const statements = await statementsOf(async () => {
      ids = await writeWithEvents(db, schema, { a: change('c-1'), b: change('c-2') }, [
        event('c-1'),
        event('c-2'),
      ]);
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('pg_notify');
    await waitFor('the NOTIFY of the statement', async () => notifications.length > 0);
    expect(notifications).toEqual([outboxChannel(schema)]);
    expect(
      await db.withSchema(schema).table('changes').whereLike('key', 'c-%').orderBy('key').pluck('key'),
    ).toEqual(['c-1', 'c-2']);
    const rows = await db.withSchema(schema).table('outbox').whereLike('key', 'c-%').orderBy('id');
    expect(rows.map((r) => parseCloudEventHeaders(r.headers).id)).toEqual(ids);

    // Without events, the change alone.
    expect(await writeWithEvents(db, schema, { a: change('c-3') }, [])).toEqual([]);
    expect(await db.withSchema(schema).table('changes').where({ key: 'c-3' }).pluck('key')).toEqual(['c-3']);
  });

  it('sends no second NOTIFY in a transaction, and keeps nothing of a statement that fails', async () => {
    const statements: string[] = [];
    await db.transaction(async (trx) => {
      trx.on('query', (q: { sql: string }) => {
        if (!/^(begin|commit)/i.test(q.sql)) statements.push(q.sql);
      });
      await enqueueEvents(trx, schema, [event('d-1')]);
      await writeWithEvents(
        trx,
        schema,
        { a: trx.withSchema(schema).table('changes').insert({ key: 'd-1' }) },
        [event('d-2')],
      );
    });
    expect(statements).toHaveLength(2);
    expect(statements[1]).not.toContain('pg_notify');
    await waitFor('the NOTIFY of the commit', async () => notifications.length > 0);
    notifications.length = 0;

    // The key exists: the change fails, and its event is not recorded either.
    await expect(writeWithEvents(db, schema, { a: change('d-1') }, [event('d-3')])).rejects.toThrow(
      /duplicate key/,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notifications).toEqual([]);
    expect(
      await db.withSchema(schema).table('outbox').whereLike('key', 'd-%').orderBy('id').pluck('key'),
    ).toEqual(['d-1', 'd-2']);
  });
});
