import { recordTopic, type TopicRecorder } from '@eligo/local-infra';
import type { notifierV1 } from '@eligo/proto';
import { Webhook } from 'standardwebhooks';
import { notifierTopic } from '../src/events/topics';
import { startReceiver, type Answer, type Receiver, type Received } from './receiver';
import { deliveryLog, flow, programWithWebhook, sleep, startNotifier, type Harness } from './support';

/**
 * The setup the webhook suites share: the real modules in one process (startNotifier) with a 1.5 s attempt
 * timeout and a 4 s ELIGO_WEBHOOK_DISABLE_AFTER, a receiver, and a recorder of the notifier's events topic.
 * Call at the top of a test file; the accessors are valid inside tests.
 */
export function useWebhookSuite() {
  let h: Harness;
  let receiver: Receiver;
  let notifierEvents: TopicRecorder;
  beforeAll(async () => {
    receiver = await startReceiver();
    // The notifier creates its events topic when it starts: on a fresh broker there is none to record before.
    h = await startNotifier({ ELIGO_WEBHOOK_TIMEOUT_MS: '1500', ELIGO_WEBHOOK_DISABLE_AFTER: '4s' });
    notifierEvents = await recordTopic(notifierTopic);
  }, 180_000);
  afterAll(async () => {
    await h?.stop();
    await notifierEvents?.stop();
    await receiver?.close();
  });
  const calls = flow(() => h.verification);
  return {
    h: () => h,
    receiver: () => receiver,
    notifierEvents: () => notifierEvents,
    calls,
    /** A program with a webhook and a verification of it whose receiver answers as planned, then succeeds. */
    async succeeded(plan: Answer[] = []) {
      const program = await programWithWebhook(h.programs, receiver.url);
      const verificationId = await calls.start(program.programId);
      receiver.plan(verificationId, plan);
      await calls.succeed(verificationId);
      return { ...program, verificationId };
    },
    /** Waits until the operator's log of the program is as wanted; fails showing it otherwise. */
    async logWhen(
      programId: string,
      done: (log: notifierV1.ListWebhookDeliveriesResponse) => boolean,
      timeoutMs = 20_000,
    ): Promise<notifierV1.ListWebhookDeliveriesResponse> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const log = await deliveryLog(h.notifier, programId);
        if (done(log)) return log;
        if (Date.now() > deadline) throw new Error(`delivery log not as expected: ${JSON.stringify(log)}`);
        await sleep(100);
      }
    },
  };
}

/** The Standard Webhooks check a receiver makes; throws when the signature does not verify. */
export const verify = (secret: string, r: Received): unknown =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
