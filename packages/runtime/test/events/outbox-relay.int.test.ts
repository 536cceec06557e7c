import type { Knex } from 'knex';
import { verificationEventsV1 } from '@eligo/proto';
import { eventType, parseCloudEventHeaders, topicFor } from '../../src/events/cloudevents';
import type { EventCounter } from '../../src/events/counters';
import type { DeliveredMessage, EventBus, Subscription } from '../../src/events/event-bus';
import { createInProcessEventBus } from '../../src/events/in-process-bus';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { enqueueEvent } from '../../src/events/outbox';
import { OutboxRelay } from '../../src/events/outbox-relay';
import {
  count,
  createEventSchema,
  dropSchema,
  randomName,
  testDb,
  testInfra,
  testLogger,
  waitFor,
} from './helpers';

const infra = testInfra();
const logger = testLogger();
const { VerificationStepChanged } = verificationEventsV1;
const emptyProjection = { subSegment: '', organizationId: 0, organizationName: '', verificationMethod: '' };

function stepChanged(verificationId: string, currentStep: string): Uint8Array {
  return VerificationStepChanged.encode({
    ...emptyProjection,
    verificationId,
    programId: 'p1',
    accountId: 'a1',
    previousStep: '',
    currentStep,
    errorIds: [],
    testMode: false,
    occurredAt: new Date(),
  }).finish();
}

async function enqueue(
  db: Knex,
  schema: string,
  service: string,
  subject: string,
  step: string,
): Promise<string> {
  return db.transaction((trx) =>
    enqueueEvent(trx, schema, {
      service,
      eventName: 'VerificationStepChanged',
      subject,
      payload: stepChanged(subject, step),
    }),
  );
}

const unpublished = (db: Knex, schema: string): Promise<number> =>
  count(db, schema, 'outbox', (q) => q.whereNull('published_at'));

describe('outbox relay on Kafka', () => {
  const service = randomName('svc');
  const schema = randomName('events_');
  const topic = topicFor(service);
  const failures = new Map<string, number>();
  const onCount: EventCounter = (name, _labels, value) =>
    failures.set(name, (failures.get(name) ?? 0) + value);
  const stops: { stop(): Promise<void> }[] = [];
  let db: Knex;
  let bus: KafkaEventBus;

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    await createEventSchema(db, schema);
    // One retry per publish, so that a refused batch fails fast and the relay's own backoff takes over.
    bus = createKafkaEventBus({
      brokers: infra.kafkaBrokers,
      clientId: 'relay-test',
      logger,
      publishRetries: 1,
    });
  });

  afterAll(async () => {
    for (const s of stops.reverse()) await s.stop();
    await bus?.deleteTopics([topic]);
    await bus?.close();
    await dropSchema(db, schema);
    await db?.destroy();
  });

  // Runs first, while the topic does not exist yet: the broker (auto-create off) refuses the batch.
  it('keeps retrying a batch the broker refused, and publishes it once the broker accepts', async () => {
    const relay = new OutboxRelay({
      db,
      schema,
      bus,
      logger,
      pollIntervalMs: 200,
      retryBackoff: { initialMs: 100, maxMs: 400 },
      onCount,
    });
    stops.push(relay);
    await relay.start();
    await enqueue(db, schema, service, 'v-refused', 'collectPersonalInfo');
    await waitFor('the relay to fail twice', async () => (failures.get('outbox_publish_failures') ?? 0) >= 2);
    expect(await unpublished(db, schema)).toBe(1);

    await bus.ensureTopics([topic], { partitions: 3 });
    await waitFor('the row to be published', async () => (await unpublished(db, schema)) === 0, {
      timeoutMs: 20_000,
    });
    await relay.stop();
  });

  // Kafka refuses a record batch over 1 MB per partition; 100 rows of 300 KB on one key would be 30 MB.
  it('splits a burst of large events on one key into batches the broker accepts, in order', async () => {
    await bus.ensureTopics([topic], { partitions: 3 });
    const received: string[] = [];
    const subscription = await bus.subscribe({
      groupId: randomName('test.relay.big.'),
      topics: [topic],
      fromBeginning: false,
      handler: async (m) => {
        if (m.key === 'v-big') received.push(VerificationStepChanged.decode(m.value).currentStep);
      },
    });
    stops.push(subscription);
    const big = 'x'.repeat(300 * 1024);
    const steps = Array.from({ length: 12 }, (_, i) => `${i}:${big}`);
    for (const step of steps) await enqueue(db, schema, service, 'v-big', step);
    const relay = new OutboxRelay({
      db,
      schema,
      bus,
      logger,
      pollIntervalMs: 200,
      retryBackoff: { maxMs: 400 },
    });
    stops.push(relay);
    await relay.start();
    await waitFor('every large row to be published', async () => (await unpublished(db, schema)) === 0, {
      timeoutMs: 20_000,
    });
    await waitFor('every large event to arrive', async () => received.length === steps.length);
    expect(received.map((s) => s.split(':')[0])).toEqual(steps.map((_, i) => String(i)));
    await relay.stop();
  });

  it('publishes on NOTIFY without waiting for its polling interval, with CloudEvents headers', async () => {
    await bus.ensureTopics([topic], { partitions: 3 });
    const received: DeliveredMessage[] = [];
    const subscription = await bus.subscribe({
      groupId: randomName('test.relay.'),
      topics: [topic],
      fromBeginning: false,
      handler: async (m) => {
        received.push(m);
      },
    });
    stops.push(subscription);
    const relay = new OutboxRelay({ db, schema, bus, logger, pollIntervalMs: 30_000 });
    stops.push(relay);
    await relay.start(); // its first pass finds nothing; from now on only a NOTIFY or 30 s wake it

    // The control: a row written without NOTIFY stays put, so what follows is not the polling fallback.
    await db
      .withSchema(schema)
      .table('outbox')
      .insert({
        topic,
        key: 'v-silent',
        event_type: eventType(service, 'VerificationStepChanged'),
        headers: {},
        payload: Buffer.from([]),
      });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await unpublished(db, schema)).toBe(1);

    const started = Date.now();
    const statements: string[] = [];
    const record = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', record);
    const ceId = await enqueue(db, schema, service, 'v-notify', 'docUpload');
    await waitFor('the NOTIFY to wake the relay', async () => (await unpublished(db, schema)) === 0, {
      timeoutMs: 2_000,
    });
    db.off('query', record);
    expect(Date.now() - started).toBeLessThan(2_000);
    // A batch takes the relay's lock and its rows with one statement: BEGIN, select, update, COMMIT.
    const relayed = statements.filter((sql) => /pg_try_advisory_xact_lock/.test(sql));
    expect(relayed.length).toBeGreaterThan(0);
    expect(relayed.every((sql) => /for update skip locked/i.test(sql))).toBe(true);

    await waitFor('the event on Kafka', async () => received.some((m) => m.key === 'v-notify'));
    const message = received.find((m) => m.key === 'v-notify')!;
    expect(message.topic).toBe(`eligo.${service}.events.v1`);
    expect(parseCloudEventHeaders(message.headers)).toMatchObject({
      id: ceId,
      source: `/eligo/${service}`,
      type: `eligo.${service}.v1.VerificationStepChanged`,
      subject: 'v-notify',
    });
    expect(VerificationStepChanged.decode(message.value)).toMatchObject({
      verificationId: 'v-notify',
      currentStep: 'docUpload',
    });
    await relay.stop();
    await subscription.stop();
  });

  it('listens again after its LISTEN connection was terminated', async () => {
    const relay = new OutboxRelay({ db, schema, bus, logger, pollIntervalMs: 30_000 });
    stops.push(relay);
    await relay.start();
    const listen = `LISTEN "eligo_outbox_${schema}"`;
    const terminated = await db.raw<{ rows: { done: boolean }[] }>(
      'select pg_terminate_backend(pid) as done from pg_stat_activity where query = ?',
      [listen],
    );
    expect(terminated.rows.length).toBeGreaterThan(0);
    await waitFor('a new LISTEN session', async () => {
      const { rows } = await db.raw<{ rows: unknown[] }>('select 1 from pg_stat_activity where query = ?', [
        listen,
      ]);
      return rows.length > 0;
    });

    await enqueue(db, schema, service, 'v-relisten', 'success');
    await waitFor('the NOTIFY to wake the relay', async () => (await unpublished(db, schema)) === 0, {
      timeoutMs: 2_000,
    });
    await relay.stop();
  });
});

describe('outbox relay stop', () => {
  const service = randomName('svc');
  const schema = randomName('events_');
  let db: Knex;
  let bus: EventBus;
  let subscription: Subscription | undefined;

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    await createEventSchema(db, schema);
    bus = createInProcessEventBus({ logger });
    await bus.ensureTopics([topicFor(service)]);
  });

  afterAll(async () => {
    await subscription?.stop();
    await bus?.close();
    await dropSchema(db, schema);
    await db?.destroy();
  });

  it('finishes the batch in flight, so that what the bus got is exactly what is marked published', async () => {
    let delivered = 0;
    subscription = await bus.subscribe({
      groupId: 'counter',
      topics: [topicFor(service)],
      fromBeginning: true,
      handler: async () => {
        delivered += 1;
      },
    });
    await db.transaction(async (trx) => {
      for (let i = 0; i < 500; i += 1) {
        await enqueueEvent(trx, schema, {
          service,
          eventName: 'VerificationStepChanged',
          subject: `v${i % 7}`,
          payload: stepChanged(`v${i % 7}`, String(i)),
        });
      }
    });
    const relay = new OutboxRelay({ db, schema, bus, logger, batchSize: 20, pollIntervalMs: 30_000 });
    await relay.start();
    await waitFor('the relay to be busy', async () => (await unpublished(db, schema)) < 500, {
      intervalMs: 1,
    });
    await relay.stop();

    const publishedAtStop = 500 - (await unpublished(db, schema));
    expect(publishedAtStop).toBeGreaterThan(0);
    expect(publishedAtStop).toBeLessThan(500); // stopped mid-stream
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(500 - (await unpublished(db, schema))).toBe(publishedAtStop); // nothing moved after stop()
    await waitFor('the bus to deliver', async () => delivered >= publishedAtStop);
    expect(delivered).toBe(publishedAtStop);
  });
});

/**
 * ELIGO_OUTBOX_LINGER_MS: a relay that just published starts its next batch no sooner than the linger after the
 * last one started, so that rows committed close together go in one batch; the first row after a quiet spell
 * goes at once.
 */
describe('outbox relay linger', () => {
  const service = randomName('svc');
  let db: Knex;
  let bus: EventBus;
  const schemas: string[] = [];
  const relays: OutboxRelay[] = [];

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    bus = createInProcessEventBus({ logger });
    await bus.ensureTopics([topicFor(service)]);
  });

  afterAll(async () => {
    for (const relay of relays) await relay.stop();
    await bus?.close();
    for (const schema of schemas) await dropSchema(db, schema);
    await db?.destroy();
  });

  /** One row after a quiet spell, then five more 30 ms apart: the batches the relay published, by size. */
  async function batchesOf(lingerMs: number) {
    const schema = randomName('events_');
    schemas.push(schema);
    await createEventSchema(db, schema);
    const batches: number[] = [];
    const recording: EventBus = { ...bus, publish: async (messages) => void batches.push(messages.length) };
    const relay = new OutboxRelay({ db, schema, bus: recording, logger, lingerMs, pollIntervalMs: 30_000 });
    relays.push(relay);
    await relay.start();
    const first = Date.now();
    await enqueue(db, schema, service, 'v0', 'first');
    await waitFor('the first row', async () => batches.length === 1, { intervalMs: 2 });
    const firstAfterMs = Date.now() - first;
    for (let i = 1; i <= 5; i++) {
      await enqueue(db, schema, service, `v${i}`, 'next');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await waitFor('every row', async () => (await unpublished(db, schema)) === 0);
    return { batches, firstAfterMs };
  }

  it('sends the rows committed during its linger together, and the first after a quiet spell at once', async () => {
    const { batches, firstAfterMs } = await batchesOf(1000);
    // The five rows span 150 ms, within the second of linger after the first batch: one batch.
    expect(batches).toEqual([1, 5]);
    expect(firstAfterMs).toBeLessThan(500);
  });

  it('sends each row as it comes without a linger', async () => {
    const { batches } = await batchesOf(0);
    expect(batches.length).toBeGreaterThanOrEqual(4);
  });
});

describe('outbox relays sharing a schema', () => {
  const service = randomName('svc');
  const schema = randomName('events_');
  const relays: OutboxRelay[] = [];
  let db: Knex;
  let bus: EventBus;
  let subscription: Subscription | undefined;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    db = testDb(infra.databaseUrl);
    await createEventSchema(db, schema);
    bus = createInProcessEventBus({ logger });
    await bus.ensureTopics([topicFor(service)]);
  });

  afterAll(async () => {
    release(); // a stuck relay's stop() waits for its batch
    await Promise.all(relays.map((r) => r.stop()));
    await subscription?.stop();
    await bus?.close();
    await dropSchema(db, schema);
    await db?.destroy();
  });

  it('never lets one relay overtake another that is stuck in the middle of a batch', async () => {
    const steps: string[] = [];
    subscription = await bus.subscribe({
      groupId: 'order',
      topics: [topicFor(service)],
      fromBeginning: true,
      handler: async (m) => {
        steps.push(VerificationStepChanged.decode(m.value).currentStep);
      },
    });
    await db.transaction(async (trx) => {
      for (let i = 1; i <= 40; i += 1) {
        await enqueueEvent(trx, schema, {
          service,
          eventName: 'VerificationStepChanged',
          subject: 'v1',
          payload: stepChanged('v1', String(i)),
        });
      }
    });

    // Relay A reaches a broker that does not answer yet: its first batch (rows 1..10) hangs in publish.
    const brokerAnswers = new Promise<void>((resolve) => (release = resolve));
    let stuck!: () => void;
    const relayAStuck = new Promise<void>((resolve) => (stuck = resolve));
    const slowBus: EventBus = {
      ...bus,
      publish: async (messages) => {
        stuck();
        await brokerAnswers;
        await bus.publish(messages);
      },
    };
    const relayA = new OutboxRelay({ db, schema, bus: slowBus, logger, batchSize: 10, pollIntervalMs: 50 });
    relays.push(relayA);
    const relayAStarted = relayA.start();
    await relayAStuck;

    const relayB = new OutboxRelay({ db, schema, bus, logger, batchSize: 10, pollIntervalMs: 50 });
    relays.push(relayB);
    await relayB.start();
    await new Promise((resolve) => setTimeout(resolve, 500)); // B polls ten times meanwhile
    expect(steps).toEqual([]);

    release();
    await relayAStarted;
    await waitFor('all 40 events', async () => steps.length >= 40);
    expect(steps).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
  });
});
