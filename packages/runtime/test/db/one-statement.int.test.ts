import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { createDb, type Knex } from '../../src/db/knex';
import { asOneStatement, NotWritten } from '../../src/db/one-statement';
import { inTransaction, type Queryable } from '../../src/db/transaction';
import { createOutboxTable, writeWithEvents } from '../../src/events/outbox';
import { parseCloudEventHeaders } from '../../src/events/cloudevents';

// asOneStatement (db/one-statement.ts): the work's one write sent after it, alone, on the pool; anything else
// refused before it is sent, and then nothing of the work stored. writeWithEvents's onlyIf: the statement's
// other parts and its events only when the named part returned a row.
const url = process.env.ELIGO_TEST_DATABASE_URL!;
const schema = `one_${randomBytes(4).toString('hex')}`;
let db: Knex;

beforeAll(async () => {
  db = createDb({
    url,
    schema,
    poolMax: 2,
    applicationName: 'one-statement-test',
    logger: pino({ level: 'silent' }),
  });
  await db.raw('create schema ??', [schema]);
  await db.schema.withSchema(schema).createTable('things', (t) => {
    t.text('id').primary();
    t.integer('size').notNullable();
  });
  await db.schema.withSchema(schema).createTable('notes', (t) => {
    t.bigIncrements('id');
    t.text('thing_id').notNullable();
  });
  await createOutboxTable(db, schema);
});

beforeEach(async () => {
  await db('notes').delete();
  await db('outbox').delete();
  await db('things').delete();
  await db('things').insert({ id: 'a', size: 1 });
});

afterAll(async () => {
  await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
});

const event = (subject: string) => ({
  service: 'verification',
  eventName: 'VerificationStepChanged',
  subject,
  payload: new Uint8Array([1, 2, 3]),
});

/** The size of `a` set to `size` where it still is `from`, a note of it, and `events`: one statement. */
const resize = (on: Queryable, from: number, size: number, events = [event('a')]) =>
  writeWithEvents(
    on,
    schema,
    {
      change: on('things').where({ id: 'a', size: from }).update({ size }).returning('id'),
      note: on.raw('insert into notes (thing_id) select id from change'),
    },
    events,
    { onlyIf: 'change' },
  );

const stored = async () => ({
  size: (await db('things').where({ id: 'a' }).first<{ size: number }>()).size,
  notes: Number((await db('notes').count<{ count: string }[]>('* as count'))[0]!.count),
  outbox: await db('outbox')
    .orderBy('id')
    .select<{ key: string; headers: Record<string, string> }[]>('key', 'headers'),
});

/** What the pool sent while `work` ran, with 'work done' where the work returned. */
async function sentBy(
  work: (mark: () => void) => Promise<unknown>,
): Promise<{ sent: string[]; result: unknown }> {
  const sent: string[] = [];
  const record = (q: { sql: string }) => sent.push(q.sql);
  db.on('query', record);
  try {
    const result = await work(() => sent.push('work done'));
    return { sent, result };
  } finally {
    db.off('query', record);
  }
}

it("sends the work's one write after the work, alone, as a transaction by itself", async () => {
  let ids: string[] = [];
  let committed = false;
  const { sent, result } = await sentBy((mark) =>
    asOneStatement(db, async (trx) => {
      ids = await resize(trx, 1, 2, [event('a'), event('b')]);
      void trx.executionPromise.then(() => (committed = true));
      mark();
      return 'answer';
    }),
  );
  expect(result).toEqual({ value: 'answer' });
  expect(sent).toHaveLength(2);
  expect(sent[0]).toBe('work done');
  expect(sent[1]).toMatch(/^with "change" as \(update/);
  await new Promise(setImmediate);
  expect(committed).toBe(true);
  const after = await stored();
  expect(after.size).toBe(2);
  expect(after.notes).toBe(1);
  // The events in their order, with the ids the call returned.
  expect(after.outbox.map((r) => r.key)).toEqual(['a', 'b']);
  expect(after.outbox.map((r) => parseCloudEventHeaders(r.headers).id)).toEqual(ids);
});

it('answers work that sends nothing as it returned, with nothing sent', async () => {
  const { sent, result } = await sentBy(() => asOneStatement(db, async () => 42));
  expect(result).toEqual({ value: 42 });
  expect(sent).toEqual([]);
});

describe('refuses, sending nothing and storing nothing,', () => {
  const refused = async (work: Parameters<typeof asOneStatement>[1]) => {
    const { sent, result } = await sentBy(() => asOneStatement(db, work));
    expect(result).toBeUndefined();
    expect(sent).toEqual([]);
    expect(await stored()).toEqual({ size: 1, notes: 0, outbox: [] });
  };

  it('a read before the write', async () => {
    await refused(async (trx) => {
      await trx('things').where({ id: 'a' }).first();
      return resize(trx, 1, 2);
    });
  });

  it('a read or a raw statement after the write', async () => {
    await refused(async (trx) => {
      await resize(trx, 1, 2);
      return trx('things').select('id');
    });
    await refused(async (trx) => {
      await resize(trx, 1, 2);
      return trx.raw('select 1');
    });
  });

  it('statements of every kind of builder', async () => {
    await refused((trx) => trx.queryBuilder().from('things').select('id'));
    await refused((trx) => trx.withSchema(schema).table('things').insert({ id: 'b', size: 1 }));
    await refused((trx) => trx('things').where({ id: 'a' }).update({ size: 5 }));
  });

  it('a second write', async () => {
    await refused(async (trx) => {
      await resize(trx, 1, 2);
      return resize(trx, 2, 3);
    });
  });

  it('even when the work catches the refusal and answers something else', async () => {
    await refused(async (trx) => {
      try {
        await trx('things').select('id');
      } catch {
        // A caller that turns any error into an answer.
      }
      await resize(trx, 1, 2);
      return 'something else';
    });
  });

  it('a write whose row changed since it was read (onlyIf)', async () => {
    await db('things').where({ id: 'a' }).update({ size: 7 });
    const { sent, result } = await sentBy(() => asOneStatement(db, (trx) => resize(trx, 1, 2)));
    expect(result).toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(await stored()).toEqual({ size: 7, notes: 0, outbox: [] });
  });
});

it("rethrows the work's own error, with nothing sent, and rejects its executionPromise", async () => {
  let execution: Promise<unknown> | undefined;
  const { sent } = await sentBy(() =>
    expect(
      asOneStatement(db, async (trx) => {
        execution = trx.executionPromise;
        await resize(trx, 1, 2);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed'),
  );
  expect(sent).toEqual([]);
  await expect(execution).rejects.toThrow(NotWritten);
  expect(await stored()).toEqual({ size: 1, notes: 0, outbox: [] });
});

it('onlyIf in a transaction: a part that returned nothing throws NotWritten, and its events are not recorded', async () => {
  await expect(inTransaction(db, (trx) => resize(trx, 9, 2))).rejects.toThrow(NotWritten);
  await expect(db.transaction((trx) => resize(trx, 9, 2))).rejects.toThrow(NotWritten);
  // On the pool too; nothing of the statement is stored either way.
  await expect(resize(db, 9, 2)).rejects.toThrow(NotWritten);
  expect(await stored()).toEqual({ size: 1, notes: 0, outbox: [] });
  // And when it returned its row, everything is.
  await inTransaction(db, (trx) => resize(trx, 1, 3));
  expect(await stored()).toMatchObject({ size: 3, notes: 1, outbox: [{ key: 'a' }] });
});
