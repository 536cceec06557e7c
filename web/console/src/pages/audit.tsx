import { useState } from 'preact/hooks';
import { auditExportUrl, listAudit, type AuditFilters } from '../api';
import { PagedTable, usePages } from '../paged-table';
import { Time, PageTitle } from '../ui';

const ACTOR = /^(operator|[0-9a-f]{24})$/;
const ACTION = /^[A-Za-z][A-Za-z0-9]{0,99}$/;

/** A datetime-local value (the browser's local time) as RFC 3339 in UTC, as the audit filters take it. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The audit log: every change made through the admin API and every console sign-in, newest first. */
export function AuditPage() {
  const [draft, setDraft] = useState({ actor: '', action: '', from: '', to: '' });
  const [filters, setFilters] = useState<AuditFilters>({});
  const [problem, setProblem] = useState('');
  const pages = usePages((cursor) => listAudit(filters, cursor), [filters]);
  const set = (key: keyof typeof draft) => (e: { currentTarget: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.currentTarget.value }));

  const submit = (e: Event) => {
    e.preventDefault();
    const actor = draft.actor.trim();
    const action = draft.action.trim();
    if (actor && !ACTOR.test(actor))
      return setProblem('The actor is a staff id (24 characters, 0-9 and a-f) or operator.');
    if (action && !ACTION.test(action))
      return setProblem('The action is an operation id, such as adminDecideReview.');
    setProblem('');
    pages.first();
    setFilters({ actor, action, from: instant(draft.from), to: instant(draft.to) });
  };

  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <form
        class="filters"
        onSubmit={submit}
        aria-label="Filter the audit log"
        aria-describedby={problem ? 'audit-problem' : undefined}
      >
        <div class="field">
          <label for="audit-actor">Actor (staff id or operator)</label>
          <input id="audit-actor" class="id" value={draft.actor} onInput={set('actor')} spellcheck={false} />
        </div>
        <div class="field">
          <label for="audit-action">Action</label>
          <input
            id="audit-action"
            value={draft.action}
            onInput={set('action')}
            placeholder="adminDecideReview"
            spellcheck={false}
          />
        </div>
        <div class="field">
          <label for="audit-from">From</label>
          <input id="audit-from" type="datetime-local" value={draft.from} onInput={set('from')} />
        </div>
        <div class="field">
          <label for="audit-to">Before</label>
          <input id="audit-to" type="datetime-local" value={draft.to} onInput={set('to')} />
        </div>
        <button type="submit">Filter</button>
        <a class="button button--quiet" href={auditExportUrl(filters)} download="eligo-audit.ndjson">
          Export as NDJSON
        </a>
      </form>
      {problem && (
        <p class="field__error" id="audit-problem" role="alert">
          {problem}
        </p>
      )}
      <PagedTable
        pages={pages}
        what="read the audit log"
        rows={(data) => data.entries}
        empty="No entry."
        caption="Audit entries, newest first"
        heads={['When', 'Actor', 'Action', 'Route', 'Targets', 'Status']}
        row={(e) => (
          <tr key={e.id}>
            <td>
              <Time value={e.at} />
            </td>
            <td>{e.actorKind === 'operator' ? 'operator' : (e.actorId ?? 'unknown staff')}</td>
            <td>{e.action}</td>
            <td>
              <code>
                {e.method} {e.route}
              </code>
            </td>
            <td>
              {Object.entries(e.targets)
                .map(([k, v]) => `${k} ${v}`)
                .join(', ') || '—'}
            </td>
            <td>{e.status}</td>
          </tr>
        )}
      />
    </>
  );
}
