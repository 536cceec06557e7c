import { useState } from 'preact/hooks';
import { getVerification, type AdminVerification, type Failure } from '../api';
import { expireVerification } from '../api-calls';
import { Deliveries } from '../deliveries';
import { ListTable } from '../paged-table';
import { Link } from '../router';
import { hrefOf } from '../routes';
import { formatTime, Time, PageTitle, Pending, Problem, Status, useLoad, useStaff } from '../ui';

/** Steps a verification never leaves. */
const FINAL_STEPS = new Set(['success', 'error']);

/** One verification: where it is, every step it took, its webhook deliveries; expire it. */
export function VerificationPage({ verificationId }: { verificationId: string }) {
  const { may } = useStaff();
  const [load, , replace] = useLoad(() => getVerification(verificationId), [verificationId]);
  const [done, setDone] = useState('');

  return (
    <>
      <p class="crumbs">
        <Link href={hrefOf({ page: 'verifications' })}>Verifications</Link>
      </p>
      <PageTitle>Verification {verificationId}</PageTitle>
      <Status text={done} />
      <Pending load={load} what="read this verification" />
      {load.state === 'ready' && (
        <>
          <section class="panel" aria-labelledby="summary-title">
            <h2 id="summary-title">Summary</h2>
            <Summary verification={load.data} />
            {may('adminExpireVerification') && !FINAL_STEPS.has(load.data.currentStep) && (
              <Expire
                verificationId={verificationId}
                onExpired={(v) => {
                  replace(v);
                  setDone('The verification was expired.');
                }}
              />
            )}
          </section>
          <section class="panel" aria-labelledby="steps-title">
            <h2 id="steps-title">Step history</h2>
            <Steps verification={load.data} />
          </section>
          {may('adminListWebhookDeliveries') && (
            <section class="panel" aria-labelledby="deliveries-title">
              <h2 id="deliveries-title">Webhook deliveries</h2>
              <Deliveries programId={load.data.details.programId} verificationId={verificationId} />
            </section>
          )}
        </>
      )}
    </>
  );
}

function Summary({ verification: v }: { verification: AdminVerification }) {
  const person = v.details.personInfo;
  return (
    <dl class="facts facts--inline">
      <dt>Current step</dt>
      <dd id="current-step">{v.currentStep}</dd>
      <dt>Mode</dt>
      <dd>{v.testMode ? 'test' : 'live'}</dd>
      <dt>Segment</dt>
      <dd>
        {v.segment}
        {v.subSegment ? ` (${v.subSegment})` : ''}
      </dd>
      <dt>Program</dt>
      <dd>
        <Link href={hrefOf({ page: 'program', programId: v.details.programId })}>{v.details.programId}</Link>
      </dd>
      <dt>Account</dt>
      <dd>
        <code>{v.accountId}</code>
      </dd>
      <dt>Tracking id</dt>
      <dd>{v.details.trackingId || '—'}</dd>
      <dt>Person</dt>
      <dd>{person ? `${person.firstName} ${person.lastName} (${person.email})` : 'not submitted yet'}</dd>
      <dt>Created</dt>
      <dd>{formatTime(v.details.created)}</dd>
      <dt>Expires</dt>
      <dd>{formatTime(v.expires)}</dd>
    </dl>
  );
}

function Steps({ verification }: { verification: AdminVerification }) {
  return (
    <ListTable
      caption="Every step the verification took, oldest first"
      heads={['When', 'From', 'To', 'Trigger', 'Errors']}
      rows={verification.steps}
      row={(s, i) => (
        <tr key={i}>
          <td>
            <Time value={s.occurred} />
          </td>
          <td>{s.previousStep ?? '—'}</td>
          <td>{s.step}</td>
          <td>{s.trigger}</td>
          <td>{s.errorIds.join(', ') || '—'}</td>
        </tr>
      )}
    />
  );
}

/** Expiring ends the verification at once: asked twice, in the page (no browser dialog). */
function Expire(props: { verificationId: string; onExpired(v: AdminVerification): void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const expire = async () => {
    setBusy(true);
    const outcome = await expireVerification(props.verificationId);
    setBusy(false);
    setConfirming(false);
    if (outcome.ok) props.onExpired(outcome.data);
    else setFailure(outcome.failure);
  };
  return (
    <div class="actions">
      {failure && <Problem failure={failure} what="expire this verification" />}
      {!confirming ? (
        <button type="button" class="button--quiet" onClick={() => setConfirming(true)}>
          Expire…
        </button>
      ) : (
        <div role="group" aria-label="Confirm expiring" class="confirm">
          <span>The person can no longer go on with this verification.</span>
          <button type="button" class="button--reject" disabled={busy} onClick={() => void expire()}>
            Expire now
          </button>
          <button type="button" class="button--quiet" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      )}
    </div>
  );
}
