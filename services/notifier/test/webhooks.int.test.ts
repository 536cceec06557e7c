import { notifierV1 } from '@eligo/proto';
import { decodeGrpcError } from '@eligo/runtime';
import { Webhook } from 'standardwebhooks';
import { deliveryLog, newProgram, programWithWebhook, sleep, WebhookNotification } from './support';
import { useWebhookSuite, verify } from './webhook-suite';

const { DeliveryStatus, WebhookEndpointStatus, NotifierEventType } = notifierV1;

/**
 * Webhooks through the real modules (programs, organizations, verification, notifier in one process) on the
 * suite's Postgres and Kafka, to a real HTTP receiver: a verification's success reaches the receiver signed,
 * failures are retried on the (shortened) schedule with the same webhook-id, and the operator's log shows it.
 */
const { h, receiver, calls, succeeded, logWhen } = useWebhookSuite();

it('posts a signed {verificationId} to the callback once a verification succeeds', async () => {
  const { programId, secret, verificationId } = await succeeded();
  const [hook] = await receiver().waitFor(verificationId, 1);
  expect(hook!.body).toBe(JSON.stringify({ verificationId }));
  expect(hook!.headers['content-type']).toBe('application/json');
  expect(hook!.headers['x-eligo-notifier-event-type']).toBe('SUCCESS');
  expect(hook!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
  expect(verify(secret, hook!)).toEqual({ verificationId });
  // Another key does not verify it.
  expect(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
      hook!.body,
      hook!.headers as Record<string, string>,
    ),
  ).toThrow();

  const log = await logWhen(
    programId,
    (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  );
  expect(log.endpoint?.status).toBe(WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_ACTIVE);
  expect(log.deliveries).toHaveLength(1);
  expect(log.deliveries[0]).toMatchObject({
    webhookId: hook!.headers['webhook-id'],
    verificationId,
    eventType: NotifierEventType.NOTIFIER_EVENT_TYPE_SUCCESS,
    refireOf: '',
    attempts: [{ attempt: 1, statusCode: 200, error: '', latencyMs: expect.any(Number) }],
  });
  expect(log.deliveries[0]!.deliveredAt).toBeInstanceOf(Date);

  // Operators see it in the metrics too.
  const metrics = await (await fetch(`${h().sut.httpUrl}/metrics`)).text();
  expect(metrics).toMatch(/^eligo_webhook_attempts_total\{module="notifier",outcome="delivered"\} [1-9]/m);
  expect(metrics).toMatch(/^eligo_webhook_event_to_delivery_seconds_count\{module="notifier"\} [1-9]/m);
});

it('retries after 500s with the same webhook-id, and logs every attempt with its status', async () => {
  const { programId, secret, verificationId } = await succeeded([500, 500]);
  const hooks = await receiver().waitFor(verificationId, 3);
  expect(new Set(hooks.map((r) => r.headers['webhook-id'])).size).toBe(1);
  expect(hooks.map((r) => r.answer)).toEqual([500, 500, 200]);
  // Each attempt is signed anew, for its own timestamp.
  for (const hook of hooks) expect(verify(secret, hook)).toEqual({ verificationId });

  const log = await logWhen(
    programId,
    (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  );
  expect(log.deliveries[0]!.attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
    [1, 500, 'receiver answered 500'],
    [2, 500, 'receiver answered 500'],
    [3, 200, ''],
  ]);
  // The streak of failures ended with the success.
  expect(log.endpoint?.failingSince).toBeUndefined();
  await sleep(500);
  expect(receiver().of(verificationId)).toHaveLength(3);
});

it('waits as long as Retry-After asks before the next attempt', async () => {
  const { verificationId } = await succeeded([{ status: 503, headers: { 'retry-after': '2' } }]);
  const [first, second] = await receiver().waitFor(verificationId, 2);
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(2000);
  expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
});

it('retries a receiver that does not answer within the timeout', async () => {
  const { programId, verificationId } = await succeeded(['hang']);
  const [first, second] = await receiver().waitFor(verificationId, 2);
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(1500);
  const log = await logWhen(
    programId,
    (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  );
  expect(log.deliveries[0]!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
    [0, 'no answer within 1.5 s'],
    [200, ''],
  ]);
});

it('sends an opted-in EXPIRATION notification with its type, and none to a program that did not opt in', async () => {
  const optedIn = await programWithWebhook(h().programs, receiver().url, [
    WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
  ]);
  const other = await programWithWebhook(h().programs, receiver().url);
  const expiring = await calls.start(optedIn.programId);
  const ignored = await calls.start(other.programId);
  await calls.expire(ignored);
  await calls.expire(expiring);

  const [hook] = await receiver().waitFor(expiring, 1);
  expect(JSON.parse(hook!.body)).toEqual({ verificationId: expiring, notifierEventType: 'EXPIRATION' });
  expect(hook!.headers['x-eligo-notifier-event-type']).toBe('EXPIRATION');
  expect(verify(optedIn.secret, hook!)).toBeTruthy();
  await sleep(1000);
  expect(receiver().of(ignored)).toEqual([]);
  expect((await deliveryLog(h().notifier, other.programId)).deliveries).toEqual([]);
  const log = await deliveryLog(h().notifier, optedIn.programId);
  expect(log.deliveries[0]?.eventType).toBe(NotifierEventType.NOTIFIER_EVENT_TYPE_EXPIRATION);
});

it('refires the latest notification: same body, a new webhook-id, linked to the original', async () => {
  const { programId, accountId, secret, verificationId } = await succeeded();
  const [first] = await receiver().waitFor(verificationId, 1);
  await logWhen(programId, (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_DELIVERED);
  await calls.refire(accountId, verificationId);
  const [, again] = await receiver().waitFor(verificationId, 2);
  expect(again!.body).toBe(first!.body);
  expect(again!.headers['webhook-id']).not.toBe(first!.headers['webhook-id']);
  expect(verify(secret, again!)).toEqual({ verificationId });
  const log = await logWhen(programId, (l) =>
    l.deliveries.every((d) => d.status === DeliveryStatus.DELIVERY_STATUS_DELIVERED),
  );
  expect(log.deliveries.map((d) => [d.webhookId, d.refireOf])).toEqual([
    [again!.headers['webhook-id'], first!.headers['webhook-id']],
    [first!.headers['webhook-id'], ''],
  ]);
});

it('pages the delivery log, newest first', async () => {
  const program = await programWithWebhook(h().programs, receiver().url);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = await calls.start(program.programId);
    await calls.succeed(id);
    ids.push(id);
  }
  await logWhen(program.programId, (l) => l.deliveries.length === 3);
  const first = await h().notifier.unary('listWebhookDeliveries', {
    programId: program.programId,
    limit: 2,
    cursor: '',
    verificationId: '',
  });
  expect(first.deliveries).toHaveLength(2);
  const second = await h().notifier.unary('listWebhookDeliveries', {
    programId: program.programId,
    limit: 2,
    cursor: first.nextCursor,
    verificationId: '',
  });
  expect(second.nextCursor).toBe('');
  const all = [...first.deliveries, ...second.deliveries];
  expect(new Set(all.map((d) => d.verificationId))).toEqual(new Set(ids));
  const created = all.map((d) => d.createdAt!.getTime());
  expect(created).toEqual([...created].sort((a, b) => b - a));
});

it('answers NOT_FOUND for an unknown program, and NONE for a program without a webhook', async () => {
  const err = decodeGrpcError(
    await h()
      .notifier.unary('listWebhookDeliveries', {
        programId: '0123456789abcdef01234567',
        limit: 0,
        cursor: '',
        verificationId: '',
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      ),
  );
  expect(err.codeName).toBe('NOT_FOUND');
  const { programId } = await newProgram(h().programs);
  const log = await deliveryLog(h().notifier, programId);
  expect(log).toEqual({
    endpoint: { status: WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_NONE, disabledReason: '' },
    deliveries: [],
    nextCursor: '',
  });
});
