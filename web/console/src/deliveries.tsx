import { useState } from 'preact/hooks';
import type { Failure, WebhookDelivery } from './api';
import { listDeliveries, resendDelivery } from './api-pending';
import { Time, Pager, Pending, Problem, Status, useCursor, useLoad, useStaff } from './ui';

/**
 * A program's webhook deliveries (those of one verification when given), newest first, each with its last
 * attempt; a delivery that failed for good may be sent again.
 */
export function Deliveries({ programId, verificationId }: { programId: string; verificationId?: string }) {
  const { may } = useStaff();
  const [cursor, next, first] = useCursor();
  const [load, reload] = useLoad(
    () => listDeliveries(programId, verificationId, cursor),
    [programId, verificationId, cursor],
  );
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState<Failure>();

  const resend = async (delivery: WebhookDelivery) => {
    setFailure(undefined);
    const outcome = await resendDelivery(programId, delivery.webhookId);
    if (!outcome.ok) return setFailure(outcome.failure);
    setDone(`Delivery ${delivery.webhookId} was queued again.`);
    reload();
  };

  if (load.state !== 'ready') return <Pending load={load} what="list the webhook deliveries" />;
  return (
    <>
      <p>
        Webhook: <strong>{load.data.webhook.status}</strong>
      </p>
      <Status text={done} />
      {failure && <Problem failure={failure} what="send this delivery again" />}
      {load.data.deliveries.length === 0 ? (
        <p class="empty">No delivery.</p>
      ) : (
        <table class="list">
          <caption class="visually-hidden">Webhook deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Made</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {load.data.deliveries.map((d) => {
              const last = d.attempts.at(-1);
              return (
                <tr key={d.webhookId}>
                  <td>
                    <Time value={d.created} />
                  </td>
                  <td>{d.notifierEventType}</td>
                  <td>{d.status}</td>
                  <td>{d.attempts.length}</td>
                  <td>{last ? (last.statusCode ?? last.error ?? '—') : '—'}</td>
                  <td>
                    {d.status === 'FAILED' && may('adminResendWebhookDelivery') && (
                      <button type="button" class="button--quiet" onClick={() => void resend(d)}>
                        Send again <span class="visually-hidden">delivery {d.webhookId}</span>
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pager
        next={load.data.nextCursor}
        atFirst={cursor === undefined}
        onNext={() => next(load.data.nextCursor)}
        onFirst={first}
      />
    </>
  );
}
