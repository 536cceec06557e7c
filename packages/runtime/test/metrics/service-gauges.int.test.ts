import type { Knex } from 'knex';
import { createMetricsRegistry } from '../../src/metrics/registry';
import { watchServiceModule } from '../../src/metrics/service-gauges';
import { createEventSchema, dropSchema, randomName, testDb, testInfra } from '../events/helpers';

// The scrape-time gauges of service modules (metrics/service-gauges.ts), on a real Postgres.
const infra = testInfra();
let db: Knex;
const schemas = [randomName('gauges_a_'), randomName('gauges_b_')];

beforeAll(async () => {
  db = testDb(infra.databaseUrl);
  for (const schema of schemas) await createEventSchema(db, schema);
});

afterAll(async () => {
  for (const schema of schemas) await dropSchema(db, schema);
  await db.destroy();
});

/** The value of a series in the exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** An outbox row: waiting since `createdAt`, or already published. */
const enqueue = (schema: string, times: { created_at?: Date; published_at?: Date }) =>
  db
    .withSchema(schema)
    .table('outbox')
    .insert({ topic: 't', key: 'k', event_type: 'e', headers: {}, payload: Buffer.from('x'), ...times });

it('reports each module’s outbox backlog and the age of its oldest unpublished event', async () => {
  const registry = createMetricsRegistry({ defaultMetrics: false });
  const [a, b] = schemas as [string, string];
  watchServiceModule(registry, 'alpha', { db, schema: a });
  const stopBeta = watchServiceModule(registry, 'beta', { db, schema: b });
  await enqueue(a, { created_at: new Date(Date.now() - 60_000) });
  await enqueue(a, { created_at: new Date() });
  await enqueue(a, { published_at: new Date() });

  const text = await registry.metrics();
  expect(sample(text, 'eligo_outbox_backlog{module="alpha"}')).toBe(2);
  expect(sample(text, 'eligo_outbox_oldest_age_seconds{module="alpha"}')).toBeGreaterThanOrEqual(59);
  expect(sample(text, 'eligo_outbox_backlog{module="beta"}')).toBe(0);
  expect(sample(text, 'eligo_outbox_oldest_age_seconds{module="beta"}')).toBe(0);
  for (const state of ['used', 'free', 'pending'])
    expect(sample(text, `eligo_db_pool_connections{module="alpha",state="${state}"}`)).toBeGreaterThanOrEqual(
      0,
    );

  // A stopped module is no longer reported.
  stopBeta();
  expect(sample(await registry.metrics(), 'eligo_outbox_backlog{module="beta"}')).toBeUndefined();
});
