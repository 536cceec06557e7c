import { ORGANIZATION_TYPES } from '@eligo/vocabulary';
import { useState } from 'preact/hooks';
import {
  acceptAddSchoolRequest,
  declineAddSchoolRequest,
  listAddSchoolRequests,
  type AddSchoolRequest,
  type Failure,
} from '../api';
import { Pager, usePages } from '../paged-table';
import { formatTime, PageTitle, Pending, Problem, Status, useStaff } from '../ui';

type RequestStatus = 'PENDING' | 'ACCEPTED' | 'DECLINED';

/**
 * Schools people asked to add to the catalog (POST /organization/addSchool): accept one (it joins the
 * catalog with the type chosen here) or decline it with a reason, which only staff see.
 */
export function AddSchoolPage() {
  const [status, setStatus] = useState<RequestStatus>('PENDING');
  const pages = usePages(
    (pageToken) => listAddSchoolRequests(status, pageToken),
    [status],
    (data) => data.nextPageToken,
  );
  const { load } = pages;
  const [done, setDone] = useState('');

  return (
    <>
      <PageTitle>Add-school requests</PageTitle>
      <div class="filters">
        <div class="field">
          <label for="request-status">Show</label>
          <select
            id="request-status"
            value={status}
            onChange={(e) => {
              pages.first();
              setStatus(e.currentTarget.value as RequestStatus);
            }}
          >
            <option value="PENDING">Pending requests</option>
            <option value="ACCEPTED">Accepted requests</option>
            <option value="DECLINED">Declined requests</option>
          </select>
        </div>
      </div>
      <Status text={done} />
      <Pending load={load} what="list the add-school requests" />
      {load.state === 'ready' && load.data.requests.length === 0 && <p class="empty">No request here.</p>}
      {load.state === 'ready' &&
        load.data.requests.map((request) => (
          <RequestCard
            key={request.requestId}
            request={request}
            onDone={(text) => {
              setDone(text);
              pages.reload();
            }}
          />
        ))}
      <Pager pages={pages} />
    </>
  );
}

function RequestCard({ request, onDone }: { request: AddSchoolRequest; onDone(text: string): void }) {
  const { may } = useStaff();
  const [action, setAction] = useState<'accept' | 'decline' | undefined>();
  const id = `request-${request.requestId}`;
  return (
    <article class="panel request" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{request.schoolName}</h2>
      <dl class="facts facts--inline">
        <dt>Domain</dt>
        <dd>{request.schoolDomain || '—'}</dd>
        <dt>Country</dt>
        <dd>{request.schoolCountry}</dd>
        <dt>Asked by</dt>
        <dd>
          {request.firstName} {request.lastName} ({request.email})
        </dd>
        <dt>Program</dt>
        <dd>
          <code>{request.programId}</code>
        </dd>
        <dt>Asked</dt>
        <dd>{formatTime(request.created)}</dd>
        {request.status !== 'PENDING' && (
          <>
            <dt>{request.status === 'ACCEPTED' ? 'Accepted' : 'Declined'}</dt>
            <dd>
              {formatTime(request.decided)}
              {request.organizationId ? ` as organization ${request.organizationId}` : ''}
              {request.declineReason ? `: ${request.declineReason}` : ''}
            </dd>
          </>
        )}
      </dl>
      {request.status === 'PENDING' && (
        <div class="actions">
          {may('adminAcceptAddSchoolRequest') && (
            <button
              type="button"
              aria-expanded={action === 'accept'}
              onClick={() => setAction(action === 'accept' ? undefined : 'accept')}
            >
              Accept…
            </button>
          )}
          {may('adminDeclineAddSchoolRequest') && (
            <button
              type="button"
              class="button--quiet"
              aria-expanded={action === 'decline'}
              onClick={() => setAction(action === 'decline' ? undefined : 'decline')}
            >
              Decline…
            </button>
          )}
        </div>
      )}
      {action === 'accept' && <AcceptForm request={request} onDone={onDone} />}
      {action === 'decline' && <DeclineForm request={request} onDone={onDone} />}
    </article>
  );
}

function AcceptForm({ request, onDone }: { request: AddSchoolRequest; onDone(text: string): void }) {
  const id = `accept-${request.requestId}`;
  const [type, setType] = useState('');
  const [name, setName] = useState(request.schoolName);
  const [typeProblem, setTypeProblem] = useState('');
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!type) {
      setTypeProblem('Choose the type of organization.');
      return;
    }
    setBusy(true);
    const outcome = await acceptAddSchoolRequest(request.requestId, {
      type: type as (typeof ORGANIZATION_TYPES)[number],
      ...(name.trim() && name.trim() !== request.schoolName ? { name: name.trim() } : {}),
    });
    setBusy(false);
    if (outcome.ok)
      return onDone(
        `${outcome.data.organization.name} was added to the catalog (organization ${outcome.data.organization.id}).`,
      );
    setFailure(outcome.failure);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label={`Accept ${request.schoolName}`}>
      <div class="field">
        <label for={`${id}-type`}>Organization type</label>
        <select
          id={`${id}-type`}
          value={type}
          onChange={(e) => {
            setTypeProblem('');
            setType(e.currentTarget.value);
          }}
          aria-invalid={typeProblem ? 'true' : undefined}
          aria-describedby={typeProblem ? `${id}-type-error` : undefined}
        >
          <option value="">Choose…</option>
          {ORGANIZATION_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        {typeProblem && (
          <p class="field__error" id={`${id}-type-error`}>
            {typeProblem}
          </p>
        )}
      </div>
      <div class="field">
        <label for={`${id}-name`}>Name in the catalog</label>
        <input id={`${id}-name`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      {failure && <Problem failure={failure} what="accept this request" />}
      <button type="submit" disabled={busy}>
        Accept and add to the catalog
      </button>
    </form>
  );
}

function DeclineForm({ request, onDone }: { request: AddSchoolRequest; onDone(text: string): void }) {
  const id = `decline-${request.requestId}`;
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    const outcome = await declineAddSchoolRequest(request.requestId, reason);
    setBusy(false);
    if (outcome.ok) return onDone(`The request for ${request.schoolName} was declined.`);
    setFailure(outcome.failure);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label={`Decline ${request.schoolName}`}>
      <div class="field">
        <label for={`${id}-reason`}>Reason (for staff; the requester never sees it)</label>
        <textarea
          id={`${id}-reason`}
          rows={3}
          maxLength={500}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
      </div>
      {failure && <Problem failure={failure} what="decline this request" />}
      <button type="submit" class="button--reject" disabled={busy}>
        Decline the request
      </button>
    </form>
  );
}
