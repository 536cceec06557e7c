import { notifierV1 } from '@eligo/proto';
import { decodeGrpcError } from '@eligo/runtime';
import { programWithWebhook, WebhookNotification } from './support';
import { useWebhookSuite, verify } from './webhook-suite';

const { DeliveryStatus } = notifierV1;

/**
 * ResendWebhookDelivery (support) through the real modules to a real receiver: an ended delivery is made again
 * as a new delivery (same body, new webhook-id, refire_of the original), the original's log left as it was;
 * what is pending, or cannot be sent today, is refused. And the log filtered by verification.
 */
const { h, receiver, calls, succeeded, logWhen } = useWebhookSuite();

const resend = (programId: string, webhookId: string) =>
  h().notifier.unary('resendWebhookDelivery', { programId, webhookId });

async function refusal(call: Promise<unknown>) {
  return decodeGrpcError(
    await call.then(
      () => {
        throw new Error('the call was not refused');
      },
      (e: unknown) => e,
    ),
  );
}

const ended = (status: notifierV1.DeliveryStatus) => (l: notifierV1.ListWebhookDeliveriesResponse) =>
  l.deliveries.length > 0 && l.deliveries.every((d) => d.status === status);

it('sends a failed delivery again: a new signed delivery that reaches the receiver, the original untouched', async () => {
  // The test schedule makes 4 attempts: all refused, the delivery ends FAILED.
  const { programId, secret, verificationId } = await succeeded([500, 500, 500, 500]);
  const failed = await logWhen(programId, ended(DeliveryStatus.DELIVERY_STATUS_FAILED));
  const original = failed.deliveries[0]!;
  expect(original.attempts).toHaveLength(4);

  const { delivery } = await resend(programId, original.webhookId);
  expect(delivery).toMatchObject({
    verificationId,
    eventType: original.eventType,
    status: DeliveryStatus.DELIVERY_STATUS_PENDING,
    refireOf: original.webhookId,
    attempts: [],
  });
  expect(delivery!.webhookId).toMatch(/^msg_[0-9a-f]{24}$/);
  expect(delivery!.webhookId).not.toBe(original.webhookId);

  const hooks = await receiver().waitFor(verificationId, 5);
  const again = hooks[4]!;
  expect(again.headers['webhook-id']).toBe(delivery!.webhookId);
  expect(again.body).toBe(hooks[0]!.body);
  expect(verify(secret, again)).toEqual({ verificationId });

  const log = await logWhen(
    programId,
    (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  );
  expect(log.deliveries.map((d) => [d.webhookId, d.status, d.attempts.length, d.refireOf])).toEqual([
    [delivery!.webhookId, DeliveryStatus.DELIVERY_STATUS_DELIVERED, 1, original.webhookId],
    [original.webhookId, DeliveryStatus.DELIVERY_STATUS_FAILED, 4, ''],
  ]);
});

it('refuses a pending delivery, and a second resend while the first is pending (deliveryPending)', async () => {
  // First attempt hangs past the 1.5 s timeout: the delivery stays PENDING meanwhile.
  const { programId, verificationId } = await succeeded(['hang', 200]);
  const [pending] = (await logWhen(programId, (l) => l.deliveries.length === 1)).deliveries;
  expect(pending!.status).toBe(DeliveryStatus.DELIVERY_STATUS_PENDING);
  const early = await refusal(resend(programId, pending!.webhookId));
  expect([early.codeName, early.reason]).toEqual(['FAILED_PRECONDITION', 'deliveryPending']);

  await logWhen(programId, ended(DeliveryStatus.DELIVERY_STATUS_DELIVERED));
  // Delivered: it may be sent again (a receiver that lost it). Its resend hangs, so it is pending a while.
  receiver().plan(verificationId, ['hang', 200]);
  const { delivery } = await resend(programId, pending!.webhookId);
  const twice = await refusal(resend(programId, pending!.webhookId));
  expect([twice.codeName, twice.reason]).toEqual(['FAILED_PRECONDITION', 'deliveryPending']);

  const log = await logWhen(programId, ended(DeliveryStatus.DELIVERY_STATUS_DELIVERED));
  expect(log.deliveries.map((d) => d.webhookId)).toEqual([delivery!.webhookId, pending!.webhookId]);
  // Once that resend ended, another may follow.
  await resend(programId, pending!.webhookId);
  await logWhen(
    programId,
    (l) => l.deliveries.length === 3 && ended(DeliveryStatus.DELIVERY_STATUS_DELIVERED)(l),
  );
});

it('answers NOT_FOUND for an unknown program, an unknown delivery, or another program’s delivery', async () => {
  const { programId } = await succeeded();
  const other = await succeeded();
  const [theirs] = (await logWhen(other.programId, ended(DeliveryStatus.DELIVERY_STATUS_DELIVERED)))
    .deliveries;
  await logWhen(programId, ended(DeliveryStatus.DELIVERY_STATUS_DELIVERED));
  // Each call made when its turn comes: a failed call nobody awaits yet is an unhandled rejection.
  for (const call of [
    () => resend('0123456789abcdef01234567', theirs!.webhookId),
    () => resend(programId, 'msg_0123456789abcdef01234567'),
    () => resend(programId, theirs!.webhookId),
  ])
    expect((await refusal(call())).codeName).toBe('NOT_FOUND');
  expect((await logWhen(other.programId, () => true)).deliveries).toHaveLength(1);
});

it('sends nothing when the program has no webhook now, or no longer takes the notification', async () => {
  const optedIn = await programWithWebhook(h().programs, receiver().url, [
    WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION,
  ]);
  const expiring = await calls.start(optedIn.programId);
  await calls.expire(expiring);
  const [expiration] = (await logWhen(optedIn.programId, ended(DeliveryStatus.DELIVERY_STATUS_DELIVERED)))
    .deliveries;
  const program = { programId: optedIn.programId, accountId: optedIn.accountId };

  await h().programs.unary('deleteWebhook', program);
  const none = await refusal(resend(optedIn.programId, expiration!.webhookId));
  expect([none.codeName, none.reason]).toEqual(['FAILED_PRECONDITION', 'noWebhook']);

  await h().programs.unary('createWebhook', { ...program, callbackUri: receiver().url, notifications: [] });
  const off = await refusal(resend(optedIn.programId, expiration!.webhookId));
  expect([off.codeName, off.reason]).toEqual(['FAILED_PRECONDITION', 'notOptedIn']);
  expect((await logWhen(optedIn.programId, () => true)).deliveries).toHaveLength(1);
});

it('sends nothing to a disabled endpoint (webhookDisabled)', async () => {
  const { programId } = await succeeded([410]);
  const log = await logWhen(programId, (l) => l.endpoint?.disabledReason === 'GONE');
  const gone = await refusal(resend(programId, log.deliveries[0]!.webhookId));
  expect([gone.codeName, gone.reason]).toEqual(['FAILED_PRECONDITION', 'webhookDisabled']);
});

it('lists only the deliveries of one verification when asked', async () => {
  const { programId, verificationId } = await succeeded();
  const second = await calls.start(programId);
  await calls.succeed(second);
  await logWhen(programId, (l) => l.deliveries.length === 2);
  const list = (id: string) =>
    h().notifier.unary('listWebhookDeliveries', { programId, limit: 1, cursor: '', verificationId: id });
  const first = await list(verificationId);
  expect(first.deliveries.map((d) => d.verificationId)).toEqual([verificationId]);
  expect(first.nextCursor).toBe('');
  expect((await list(second)).deliveries.map((d) => d.verificationId)).toEqual([second]);
  expect((await list('0123456789abcdef01234567')).deliveries).toEqual([]);
  const bad = await refusal(list('not-an-id'));
  expect(bad.codeName).toBe('INVALID_ARGUMENT');
});
