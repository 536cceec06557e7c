import { useState } from 'preact/hooks';
import { listAccounts } from '../api-calls';
import { PagedTable, usePages } from '../paged-table';
import { Link } from '../router';
import { hrefOf } from '../routes';
import { Time, PageTitle } from '../ui';

/** The accounts (the businesses running programs), found by name, one page at a time. */
export function AccountsPage() {
  const [draft, setDraft] = useState('');
  const [name, setName] = useState('');
  const pages = usePages((cursor) => listAccounts(name, cursor), [name]);

  return (
    <>
      <PageTitle>Accounts</PageTitle>
      <form
        class="filters"
        aria-label="Find accounts"
        onSubmit={(e) => {
          e.preventDefault();
          pages.first();
          setName(draft.trim());
        }}
      >
        <div class="field">
          <label for="accounts-name">Name</label>
          <input id="accounts-name" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </div>
        <button type="submit">Find</button>
      </form>
      <PagedTable
        pages={pages}
        what="list the accounts"
        rows={(data) => data.accounts}
        empty="No account found."
        caption="Accounts"
        heads={['Name', 'Account id', 'Programs', 'Access tokens', 'Created']}
        row={(a) => (
          <tr key={a.accountId}>
            <td>
              <Link href={hrefOf({ page: 'account', accountId: a.accountId })}>{a.name}</Link>
            </td>
            <td>
              <code>{a.accountId}</code>
            </td>
            <td>
              <Link href={hrefOf({ page: 'programs', accountId: a.accountId })}>
                {a.programCount} program{a.programCount === 1 ? '' : 's'}
                <span class="visually-hidden"> of {a.name}</span>
              </Link>
            </td>
            <td>{a.tokenCount}</td>
            <td>
              <Time value={a.created} />
            </td>
          </tr>
        )}
      />
    </>
  );
}
