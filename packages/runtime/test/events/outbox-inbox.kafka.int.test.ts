import type { Knex } from 'knex';
import { topicFor } from '../../src/events/cloudevents';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { FixtureProcess } from './child-process';
import {
  count,
  createEventSchema,
  dropSchema,
  randomName,
  testDb,
  testInfra,
  testLogger,
  testLogLevel,
  waitFor,
} from './helpers';
import { enqueueScenario, expectAppliedExactlyOnceInOrder, republishOldest, scenarioKeys } from './scenario';

// Relays and the consumer run as child processes on the compiled runtime (dist/), so they can be SIGKILLed.
describe('outbox -> Kafka -> inbox, with processes killed mid-stream', () => {
  const infra = testInfra();
  const service = randomName('svc');
  const schema = randomName('events_');
  const topic = topicFor(service);
  const consumerName = 'effects';
  const keys = scenarioKeys(10);
  const perKey = 50;
  const total = keys.length * perKey;
  const relayTotals = new Map<string, number>();
  const consumerTotals = new Map<string, number>();
  const children: FixtureProcess[] = [];
  let db: Knex;
  let bus: KafkaEventBus;

  const relayProcess = async (): Promise<FixtureProcess> => {
    const child = new FixtureProcess(
      'relay-process.js',
      {
        databaseUrl: infra.databaseUrl,
        brokers: infra.kafkaBrokers,
        schema,
        batchSize: 10,
        pollIntervalMs: 500,
        logLevel: testLogLevel(),
      },
      relayTotals,
    );
    children.push(child);
    await child.ready;
    return child;
  };
  const consumerProcess = async (): Promise<FixtureProcess> => {
    const child = new FixtureProcess(
      'consumer-process.js',
      {
        databaseUrl: infra.databaseUrl,
        brokers: infra.kafkaBrokers,
        schema,
        service,
        topic,
        name: consumerName,
        workMs: 2,
        logLevel: testLogLevel(),
      },
      consumerTotals,
    );
    children.push(child);
    await child.ready;
    return child;
  };

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    await createEventSchema(db, schema);
    bus = createKafkaEventBus({
      brokers: infra.kafkaBrokers,
      clientId: 'outbox-inbox-test',
      logger: testLogger(),
    });
    await bus.ensureTopics([topic], { partitions: 3 });
  });

  afterAll(async () => {
    await Promise.all(children.map((c) => c.kill()));
    await bus?.deleteTopics([topic]);
    await bus?.deleteGroups([`eligo.${schema}.${consumerName}`]).catch(() => undefined);
    await bus?.close();
    await dropSchema(db, schema);
    await db?.destroy();
  });

  it('applies every event exactly once, in order per key, although relay and consumer were killed', async () => {
    const published = (): Promise<number> =>
      count(db, schema, 'outbox', (q) => q.whereNotNull('published_at'));
    const applied = (): Promise<number> => count(db, schema, 'effects');

    let consumer = await consumerProcess();
    const producing = enqueueScenario(db, schema, service, keys, perKey, 20);
    // Two relays start together on a backlog: they compete for the same rows, and per-key order must hold.
    await waitFor('a backlog', async () => (await count(db, schema, 'outbox')) >= 150);
    const [relayA] = await Promise.all([relayProcess(), relayProcess()]);

    await waitFor('a part of the outbox to be published', async () => (await published()) >= 100);
    await relayA.kill();
    expect(await published()).toBeLessThan(total); // the kill happened mid-stream
    await relayProcess();

    await waitFor('a part of the events to be applied', async () => (await applied()) >= 200);
    await consumer.kill();
    expect(await applied()).toBeLessThan(total);
    consumer = await consumerProcess();

    await producing;
    await waitFor('every event to be applied', async () => (await applied()) >= total, { timeoutMs: 90_000 });

    // The relay-crash window (published, not yet marked) on purpose, so duplicates are certain to arrive.
    const duplicatesBefore = consumerTotals.get('inbox_duplicates') ?? 0;
    await republishOldest(db, schema, 25);
    await waitFor(
      'the republished events to reach the consumer',
      async () => (consumerTotals.get('inbox_duplicates') ?? 0) >= duplicatesBefore + 25,
    );

    await expectAppliedExactlyOnceInOrder(db, schema, keys, perKey);
    await consumer.stop();
  }, 180_000);
});
