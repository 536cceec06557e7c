import type { Knex } from 'knex';
import { topicFor } from '../../src/events/cloudevents';
import type { EventCounter } from '../../src/events/counters';
import type { EventBus, Subscription } from '../../src/events/event-bus';
import { createEventConsumer } from '../../src/events/event-consumer';
import type { BusLog } from '../../src/events/bus-log';
import { createInProcessEventBus } from '../../src/events/in-process-bus';
import { OutboxRelay } from '../../src/events/outbox-relay';
import { createPostgresBusLog } from '../../src/events/postgres-bus-log';
import { createEventSchema, dropSchema, randomName, testDb, testInfra, testLogger } from './helpers';
import { effectHandlers, runInterruptedScenario, scenarioKeys } from './scenario';

const infra = testInfra();
const logger = testLogger();
const busSchema = randomName('bus_');
const logs: [string, () => BusLog | undefined][] = [
  ['in memory', () => undefined],
  ['on postgres', () => createPostgresBusLog({ url: infra.databaseUrl, schema: busSchema, logger })],
];

// The embedded all-in-one path: same outbox and inbox on real Postgres, the in-process bus in between.
describe.each(logs)('outbox -> in-process bus (%s) -> inbox, with relay and consumer restarted', (_, log) => {
  const service = randomName('svc');
  const schema = randomName('events_');
  const topic = topicFor(service);
  const keys = scenarioKeys(10);
  const perKey = 50;
  const total = keys.length * perKey;
  const totals = new Map<string, number>();
  const onCount: EventCounter = (name, _labels, value) => totals.set(name, (totals.get(name) ?? 0) + value);
  const running: { stop(): Promise<void> }[] = [];
  let db: Knex;
  let bus: EventBus;

  const startRelay = async (): Promise<OutboxRelay> => {
    const relay = new OutboxRelay({ db, schema, bus, logger, batchSize: 10, pollIntervalMs: 500, onCount });
    await relay.start();
    running.push(relay);
    return relay;
  };
  const startConsumer = async (): Promise<Subscription> => {
    const subscription = await createEventConsumer({
      bus,
      db,
      schema,
      name: 'effects',
      topics: [topic],
      handlers: effectHandlers(service, schema),
      logger,
      onCount,
    });
    running.push(subscription);
    return subscription;
  };

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    await createEventSchema(db, schema);
    bus = createInProcessEventBus({ logger, handlerRetry: { initialMs: 5, maxMs: 50 }, log: log() });
    await bus.ensureTopics([topic]);
  });

  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()));
    await bus?.close();
    await dropSchema(db, schema);
    await dropSchema(db, busSchema);
    await db?.destroy();
  });

  it('applies every event exactly once, in order per key, across restarts', async () => {
    await runInterruptedScenario({
      db,
      schema,
      service,
      keys,
      perKey,
      pauseMs: 10,
      startConsumer,
      startRelay,
      interrupt: (part) => part.stop(),
      duplicates: () => totals.get('inbox_duplicates') ?? 0,
      timeoutMs: 60_000,
    });
    expect(totals.get('inbox_applied')).toBe(total);
  }, 120_000);
});
