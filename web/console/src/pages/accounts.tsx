import { useState } from 'preact/hooks';
import { listAccounts } from '../api-pending';
import { Link } from '../router';
import { hrefOf } from '../routes';
import { Time, Pager, PageTitle, Pending, useCursor, useLoad } from '../ui';

/** The accounts (the businesses running programs), found by name, one page at a time. */
export function AccountsPage() {
  const [draft, setDraft] = useState('');
  const [name, setName] = useState('');
  const [cursor, next, first] = useCursor();
  const [load] = useLoad(() => listAccounts(name, cursor), [name, cursor]);

  return (
    <>
      <PageTitle>Accounts</PageTitle>
      <form
        class="filters"
        aria-label="Find accounts"
        onSubmit={(e) => {
          e.preventDefault();
          first();
          setName(draft.trim());
        }}
      >
        <div class="field">
          <label for="accounts-name">Name</label>
          <input id="accounts-name" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </div>
        <button type="submit">Find</button>
      </form>
      <Pending load={load} what="list the accounts" />
      {load.state === 'ready' &&
        (load.data.accounts.length === 0 ? (
          <p class="empty">No account found.</p>
        ) : (
          <table class="list">
            <caption class="visually-hidden">Accounts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Account id</th>
                <th scope="col">Programs</th>
                <th scope="col">Access tokens</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {load.data.accounts.map((a) => (
                <tr key={a.accountId}>
                  <td>{a.name}</td>
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
              ))}
            </tbody>
          </table>
        ))}
      {load.state === 'ready' && (
        <Pager
          next={load.data.nextCursor}
          atFirst={cursor === undefined}
          onNext={() => next(load.data.nextCursor)}
          onFirst={first}
        />
      )}
    </>
  );
}
