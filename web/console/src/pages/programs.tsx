import { segmentNames } from '@eligo/vocabulary';
import { useState } from 'preact/hooks';
import { listPrograms, type ProgramFilters } from '../api-calls';
import { PagedTable, usePages } from '../paged-table';
import { Link } from '../router';
import { hrefOf } from '../routes';
import { Options, Time, PageTitle } from '../ui';

/** Every account's programs, filtered by account, segment, mode and name, one page at a time. */
export function ProgramsPage({ accountId }: { accountId?: string }) {
  const [draft, setDraft] = useState<ProgramFilters>({
    accountId: accountId ?? '',
    segment: '',
    mode: '',
    name: '',
  });
  const [filters, setFilters] = useState<ProgramFilters>(accountId ? { accountId } : {});
  const pages = usePages((cursor) => listPrograms(filters, cursor), [filters]);
  const set = (key: keyof ProgramFilters) => (e: { currentTarget: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.currentTarget.value }));

  const submit = (e: Event) => {
    e.preventDefault();
    pages.first();
    setFilters(Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v?.trim() || undefined])));
  };

  return (
    <>
      <PageTitle>Programs</PageTitle>
      <form class="filters" onSubmit={submit} aria-label="Filter the programs">
        <div class="field">
          <label for="programs-name">Name</label>
          <input id="programs-name" value={draft.name} onInput={set('name')} />
        </div>
        <div class="field">
          <label for="programs-account">Account id</label>
          <input
            id="programs-account"
            class="id"
            value={draft.accountId}
            onInput={set('accountId')}
            spellcheck={false}
          />
        </div>
        <div class="field">
          <label for="programs-segment">Segment</label>
          <select id="programs-segment" value={draft.segment} onChange={set('segment')}>
            <Options none="Any segment" values={segmentNames} />
          </select>
        </div>
        <div class="field">
          <label for="programs-mode">Mode</label>
          <select id="programs-mode" value={draft.mode} onChange={set('mode')}>
            <option value="">Test and live</option>
            <option value="test">Test</option>
            <option value="live">Live</option>
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <PagedTable
        pages={pages}
        what="list the programs"
        rows={(data) => data.programs}
        empty="No program found."
        caption="Programs"
        heads={['Name', 'Segment', 'Mode', 'Offer', 'Account', 'Updated']}
        row={(p) => (
          <tr key={p.programId}>
            <td>
              <Link href={hrefOf({ page: 'program', programId: p.programId })}>{p.name}</Link>
            </td>
            <td>{p.segment}</td>
            <td>{p.mode}</td>
            <td>{p.offerType}</td>
            <td>
              <code>{p.accountId}</code>
            </td>
            <td>
              <Time value={p.updated} />
            </td>
          </tr>
        )}
      />
    </>
  );
}
