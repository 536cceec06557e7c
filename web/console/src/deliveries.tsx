import { useState } from 'preact/hooks';
import type { Failure, WebhookDelivery } from './api';
import { listDeliveries, resendDelivery } from './api-calls';
import { PagedTable, usePages } from './paged-table';
import { Time, Problem, Status, useStaff } from './ui';

/**
 * A program's webhook deliveries (those of one verification when given), newest first, each with its last
 * attempt; a delivery that failed for good may be sent again.
 */
export function Deliveries({ programId, verificationId }: { programId: string; verificationId?: string }) {
  const { may } = useStaff();
  const pages = usePages(
    (cursor) => listDeliveries(programId, verificationId, cursor),
    [programId, verificationId],
  );
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState<Failure>();

  const resend = async (delivery: WebhookDelivery) => {
    setFailure(undefined);
    const outcome = await resendDelivery(programId, delivery.webhookId);
    if (!outcome.ok) return setFailure(outcome.failure);
    setDone(`Delivery ${delivery.webhookId} was queued again.`);
    pages.reload();
  };

  return (
    <PagedTable
      pages={pages}
      what="list the webhook deliveries"
      above={(data) => (
        <>
          <p>
            Webhook: <strong>{data.webhook.status}</strong>
          </p>
          <Status text={done} />
          {failure && <Problem failure={failure} what="send this delivery again" />}
        </>
      )}
      rows={(data) => data.deliveries}
      empty="No delivery."
      caption="Webhook deliveries, newest first"
      heads={[
        'Made',
        'Event',
        'Status',
        'Attempts',
        'Last answer',
        <span class="visually-hidden">Actions</span>,
      ]}
      row={(d) => {
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
      }}
    />
  );
}
