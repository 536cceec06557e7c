import { Kafka, KafkaJSProtocolError } from 'kafkajs';
import { createKafkaEventBus } from '../../src/events/kafka-bus';
import { randomName, testInfra, testLogger } from './helpers';

// A group just created on a busy broker may have its coordinator moving: the broker answers NOT_COORDINATOR
// (code 16, retriable) to the offset fetch subscribe() makes, and kafkajs's admin passes that on. Seen in CI
// as a failed subscribe; the bus must wait it out. The broker is real; only the first answer is replaced.
const infra = testInfra();

it('subscribe waits out a "not the correct coordinator" answer to its offset fetch', async () => {
  const realAdmin = Kafka.prototype.admin;
  let refused = 0;
  const spy = jest.spyOn(Kafka.prototype, 'admin').mockImplementation(function (this: Kafka, ...args) {
    const admin = realAdmin.apply(this, args);
    const fetchOffsets = admin.fetchOffsets.bind(admin);
    admin.fetchOffsets = async (request) => {
      if (refused++ === 0)
        // kafkajs builds these from its table of broker error codes (its typings only show the message form).
        throw new KafkaJSProtocolError(
          Object.assign(new Error('This is not the correct coordinator for this group'), {
            type: 'NOT_COORDINATOR',
            code: 16,
            retriable: true,
          }),
        );
      return fetchOffsets(request);
    };
    return admin;
  });
  const bus = createKafkaEventBus({
    brokers: infra.kafkaBrokers,
    clientId: 'coordinator-test',
    logger: testLogger(),
  });
  const topic = randomName('test.coordinator.');
  const groupId = randomName('test.group.');
  try {
    await bus.ensureTopics([topic], { partitions: 1 });
    const subscription = await bus.subscribe({ groupId, topics: [topic], handler: async () => undefined });
    expect(refused).toBeGreaterThanOrEqual(2);
    await subscription.stop();
  } finally {
    spy.mockRestore();
    await bus.deleteTopics([topic]);
    await bus.deleteGroups([groupId]).catch(() => undefined);
    await bus.close();
  }
});
