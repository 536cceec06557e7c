import type { Knex } from 'knex';
import { topicFor } from '../../src/events/cloudevents';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { FixtureProcess } from './child-process';
import {
  createEventSchema,
  dropSchema,
  randomName,
  testDb,
  testInfra,
  testLogger,
  testLogLevel,
} from './helpers';
import { runInterruptedScenario, scenarioKeys } from './scenario';

// Relays and the consumer run as child processes on the compiled runtime (dist/), so they can be SIGKILLed.
describe('outbox -> Kafka -> inbox, with processes killed mid-stream', () => {
  const infra = testInfra();
  const service = randomName('svc');
  const schema = randomName('events_');
  const topic = topicFor(service);
  const consumerName = 'effects';
  const keys = scenarioKeys(10);
  const perKey = 50;
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
    const consumer = await runInterruptedScenario({
      db,
      schema,
      service,
      keys,
      perKey,
      pauseMs: 20,
      startConsumer: consumerProcess,
      startRelay: relayProcess,
      interrupt: (child) => child.kill(),
      duplicates: () => consumerTotals.get('inbox_duplicates') ?? 0,
      timeoutMs: 90_000,
    });
    await consumer.stop();
  }, 180_000);
});
