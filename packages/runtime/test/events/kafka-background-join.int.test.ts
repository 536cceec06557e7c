import type { DeliveredMessage } from '../../src/events/event-bus';
import { reportsLag } from '../../src/events/consumer-lag';
import { createKafkaEventBus, type KafkaEventBus } from '../../src/events/kafka-bus';
import { FixtureProcess } from './child-process';
import { randomName, testInfra, testLogger, testLogLevel, waitFor } from './helpers';

// After a hard restart the broker keeps the killed member in its group until the member's session expires;
// subscribe() must not wait for that (a process waiting on it is not ready for 30 s), and stop() must still
// end cleanly when the join is in flight. The member fixture runs the compiled runtime (dist/).
const infra = testInfra();
const sessionTimeoutMs = 8000;
let bus: KafkaEventBus;
const topics: string[] = [];
const groups: string[] = [];
let sent = 0;

beforeAll(() => {
  bus = createKafkaEventBus({
    brokers: infra.kafkaBrokers,
    clientId: 'background-join-test',
    logger: testLogger(),
    sessionTimeoutMs,
    heartbeatIntervalMs: 500,
  });
});

afterAll(async () => {
  await bus.deleteTopics(topics);
  await bus.deleteGroups(groups).catch(() => undefined);
  await bus.close();
});

const newTopic = async (): Promise<string> => {
  const topic = randomName('test.join.');
  await bus.ensureTopics([topic], { partitions: 1 });
  topics.push(topic);
  return topic;
};
const newGroup = (): string => {
  const groupId = randomName('test.group.');
  groups.push(groupId);
  return groupId;
};
const publish = async (topic: string): Promise<string> => {
  const value = `m${++sent}`;
  await bus.publish([{ topic, key: 'k', value: Buffer.from(value), headers: {} }]);
  return value;
};
const recorder = () => {
  const seen: string[] = [];
  return { seen, handler: async (m: DeliveredMessage) => void seen.push(m.value.toString()) };
};

/** A member that joined the group (it handled a message), then was SIGKILLed: it stays until its session expires. */
async function leaveDeadMember(topic: string, groupId: string): Promise<void> {
  await publish(topic);
  const member = new FixtureProcess(
    'group-member-process.js',
    {
      databaseUrl: infra.databaseUrl,
      brokers: infra.kafkaBrokers,
      groupId,
      topic,
      sessionTimeoutMs,
      logLevel: testLogLevel(),
    },
    new Map(),
  );
  await member.ready;
  await member.kill();
}

it('resolves subscribe at once beside a dead member, and consumes once the group let it join', async () => {
  const topic = await newTopic();
  const groupId = newGroup();
  await leaveDeadMember(topic, groupId);

  const t0 = Date.now();
  const received = recorder();
  const subscription = await bus.subscribe({ groupId, topics: [topic], handler: received.handler });
  const subscribeMs = Date.now() - t0;
  const value = await publish(topic);
  await waitFor('the message, after the join', async () => received.seen.includes(value), {
    timeoutMs: sessionTimeoutMs + 20_000,
  });
  const deliveredMs = Date.now() - t0;
  await subscription.stop();
  // Joining waited for the dead member's session; subscribe did not.
  expect(subscribeMs).toBeLessThan(2000);
  expect(deliveredMs).toBeGreaterThan(subscribeMs);
}, 60_000);

it('stops during that join without leaving a member behind', async () => {
  const topic = await newTopic();
  const groupId = newGroup();
  await leaveDeadMember(topic, groupId);

  const stopped = recorder();
  const subscription = await bus.subscribe({ groupId, topics: [topic], handler: stopped.handler });
  const t0 = Date.now();
  await subscription.stop();
  expect(Date.now() - t0).toBeLessThan(sessionTimeoutMs + 10_000);

  // The group is free: a new member joins at once and gets the partition (a stale member of ours would hold
  // it without handling anything), and nothing is handled behind the stopped subscription.
  const value = await publish(topic);
  const next = recorder();
  const again = await bus.subscribe({ groupId, topics: [topic], handler: next.handler });
  await waitFor('the new member', async () => next.seen.includes(value), { timeoutMs: 10_000 });
  await again.stop();
  expect(stopped.seen).toEqual([]);
}, 60_000);

it('reports the lag of each partition, counting a new group from where it starts', async () => {
  const topic = await newTopic();
  for (let i = 0; i < 3; i++) await publish(topic);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const fromStart = await bus.subscribe({
    groupId: newGroup(),
    topics: [topic],
    fromBeginning: true,
    handler: () => gate,
  });
  const onlyNew = await bus.subscribe({
    groupId: newGroup(),
    topics: [topic],
    handler: async () => undefined,
  });
  if (!reportsLag(fromStart) || !reportsLag(onlyNew)) throw new Error('a Kafka subscription reports its lag');
  expect(await fromStart.lag()).toEqual([{ topic, partition: 0, lag: 3 }]);
  expect(await onlyNew.lag()).toEqual([{ topic, partition: 0, lag: 0 }]);

  open();
  await waitFor('the lag to drain', async () => (await fromStart.lag())[0]?.lag === 0, { timeoutMs: 20_000 });
  await Promise.all([fromStart.stop(), onlyNew.stop()]);
}, 60_000);
