import { notifierEventsV1, notifierV1 } from '@eligo/proto';
import { activateEndpoint } from '../src/repository/endpoints.repository';
import { deliveryLog, sleep } from './support';
import { useWebhookSuite, verify } from './webhook-suite';

const { DeliveryStatus, WebhookEndpointStatus } = notifierV1;

/**
 * The endpoint's life as the notifier manages it: a delivery given up once its schedule is used up, an
 * endpoint disabled after failing for too long or on a 410 (its owner told by a WebhookDisabled event), turned
 * back on by configuring the webhook again, and deliveries cancelled when the webhook is removed.
 */
const { h, receiver, notifierEvents, calls, succeeded, logWhen } = useWebhookSuite();

it('fails a delivery once the schedule is used up, and disables an endpoint failing for too long', async () => {
  const { programId, accountId, verificationId } = await succeeded([500, 500, 500, 500]);
  await receiver().waitFor(verificationId, 4);
  const failed = await logWhen(
    programId,
    (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_FAILED,
  );
  expect(failed.deliveries[0]!.attempts).toHaveLength(4);
  expect(failed.endpoint).toMatchObject({
    status: WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_ACTIVE,
    failingSince: expect.any(Date),
  });
  await sleep(500);
  expect(receiver().of(verificationId)).toHaveLength(4);

  // Still failing more than ELIGO_WEBHOOK_DISABLE_AFTER (4 s) after the first failure: disabled, owner told.
  const next = await calls.start(programId);
  // Its second attempt comes after the 4 s, as the receiver asks.
  receiver().plan(next, [{ status: 503, headers: { 'retry-after': '5' } }, 500]);
  await calls.succeed(next);
  const disabled = await logWhen(
    programId,
    (l) => l.endpoint?.status === WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_DISABLED,
    30_000,
  );
  expect(disabled.endpoint?.disabledReason).toBe('PERSISTENT_FAILURE');
  const [event] = await notifierEvents().keyed(programId, 1);
  expect(notifierEventsV1.WebhookDisabled.decode(event!.value)).toMatchObject({
    programId,
    accountId,
    reason: 'PERSISTENT_FAILURE',
  });
}, 60_000);

it('disables the endpoint on 410, tells the owner, sends nothing more until the webhook is configured again', async () => {
  const { programId, accountId, verificationId } = await succeeded([410]);
  await receiver().waitFor(verificationId, 1);
  const log = await logWhen(
    programId,
    (l) => l.endpoint?.status === WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_DISABLED,
  );
  expect(log.endpoint).toMatchObject({ disabledReason: 'GONE', disabledAt: expect.any(Date) });
  expect(log.deliveries[0]).toMatchObject({
    status: DeliveryStatus.DELIVERY_STATUS_FAILED,
    attempts: [{ statusCode: 410 }],
  });
  const [event] = await notifierEvents().keyed(programId, 1);
  expect(event!.headers['ce_type']).toBe('eligo.notifier.v1.WebhookDisabled');
  expect(notifierEventsV1.WebhookDisabled.decode(event!.value)).toMatchObject({
    programId,
    accountId,
    reason: 'GONE',
  });

  const ignored = await calls.start(programId);
  await calls.succeed(ignored);
  await sleep(1500);
  expect(receiver().of(ignored)).toEqual([]);
  expect((await deliveryLog(h().notifier, programId)).deliveries).toHaveLength(1);

  // Configuring the webhook again is how the owner turns it back on (a new secret comes with it).
  await h().programs.unary('deleteWebhook', { programId, accountId });
  const { signingSecret } = await h().programs.unary('createWebhook', {
    programId,
    accountId,
    callbackUri: receiver().url,
    notifications: [],
  });
  await logWhen(
    programId,
    (l) => l.endpoint?.status === WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_ACTIVE,
  );
  const delivered = await calls.start(programId);
  await calls.succeed(delivered);
  const [hook] = await receiver().waitFor(delivered, 1);
  expect(verify(signingSecret, hook!)).toEqual({ verificationId: delivered });
});

it('stays disabled when a configuration from before the disable is applied after it (its event came late)', async () => {
  const { programId, accountId, verificationId } = await succeeded([410]);
  await receiver().waitFor(verificationId, 1);
  const { endpoint } = await logWhen(
    programId,
    (l) => l.endpoint?.status === WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_DISABLED,
  );
  const disabledAt = endpoint!.disabledAt!.getTime();
  // What the programs-webhooks consumer does with a WebhookConfigured, for one configured a second before the
  // disable, then for one configured a second after it.
  const configured = (at: number) =>
    h().db.transaction((trx) => activateEndpoint(trx, programId, accountId, new Date(at), new Date()));
  await configured(disabledAt - 1000);
  expect((await deliveryLog(h().notifier, programId)).endpoint).toMatchObject({
    status: WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_DISABLED,
    disabledReason: 'GONE',
  });
  await configured(disabledAt + 1000);
  expect((await deliveryLog(h().notifier, programId)).endpoint).toMatchObject({
    status: WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_ACTIVE,
    disabledReason: '',
  });
});

it('cancels what waits for a webhook that is removed', async () => {
  const { programId, accountId, verificationId } = await succeeded([
    { status: 503, headers: { 'retry-after': '3' } },
  ]);
  await receiver().waitFor(verificationId, 1);
  await h().programs.unary('deleteWebhook', { programId, accountId });
  const log = await logWhen(
    programId,
    (l) => l.deliveries[0]?.status === DeliveryStatus.DELIVERY_STATUS_CANCELLED,
  );
  expect(log.endpoint?.status).toBe(WebhookEndpointStatus.WEBHOOK_ENDPOINT_STATUS_NONE);
  await sleep(3500);
  expect(receiver().of(verificationId)).toHaveLength(1);
});
