import { useState } from 'preact/hooks';
import { searchVerifications, type VerificationSearch } from '../api-calls';
import { PagedTable, usePages } from '../paged-table';
import { Link, navigate } from '../router';
import { hrefOf } from '../routes';
import { Time, PageTitle } from '../ui';

type Kind = 'verificationId' | 'trackingId' | 'email' | 'programId';
const ID = /^[0-9a-f]{24}$/;

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'verificationId', label: 'Verification id' },
  { kind: 'trackingId', label: 'Tracking id' },
  { kind: 'email', label: "Person's email" },
  { kind: 'programId', label: 'Program id' },
];

/**
 * Finds verifications: by id (opens it), or by tracking id, the person's email or the program (a list, newest
 * first). What was searched stays in the page, never in its address: an email is personal data.
 */
export function VerificationsPage() {
  const [kind, setKind] = useState<Kind>('verificationId');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState('');
  const [search, setSearch] = useState<{ query: VerificationSearch; round: number }>();

  const submit = (e: Event) => {
    e.preventDefault();
    const text = value.trim();
    if (!text) return setProblem('Enter what to search for.');
    if ((kind === 'verificationId' || kind === 'programId') && !ID.test(text))
      return setProblem('An id is 24 characters, 0-9 and a-f.');
    setProblem('');
    if (kind === 'verificationId') return navigate(hrefOf({ page: 'verification', verificationId: text }));
    setSearch((s) => ({ query: { [kind]: text }, round: (s?.round ?? 0) + 1 }));
  };

  return (
    <>
      <PageTitle>Verifications</PageTitle>
      <form class="filters" onSubmit={submit} aria-label="Find verifications" noValidate>
        <div class="field">
          <label for="find-kind">Find by</label>
          <select id="find-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field field--wide">
          <label for="find-value">{KINDS.find((k) => k.kind === kind)!.label}</label>
          <input
            id="find-value"
            inputMode={kind === 'email' ? 'email' : 'text'}
            autocomplete="off"
            value={value}
            spellcheck={false}
            onInput={(e) => setValue(e.currentTarget.value)}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={problem ? 'find-error' : undefined}
          />
          {problem && (
            <p class="field__error" id="find-error">
              {problem}
            </p>
          )}
        </div>
        <button type="submit">Find</button>
      </form>
      {search && <Results key={search.round} query={search.query} />}
    </>
  );
}

/** One search's results, page by page; a new search is a new Results (its key), back on its first page. */
function Results({ query }: { query: VerificationSearch }) {
  const pages = usePages((cursor) => searchVerifications(query, cursor), []);
  return (
    <PagedTable
      pages={pages}
      what="search the verifications"
      rows={(data) => data.verifications}
      empty="No verification found."
      caption="Verifications found, newest first"
      heads={['Verification', 'Step', 'Segment', 'Tracking id', 'Program', 'Updated']}
      row={(v) => (
        <tr key={v.verificationId}>
          <td>
            <Link href={hrefOf({ page: 'verification', verificationId: v.verificationId })}>
              {v.verificationId}
            </Link>
            {v.testMode && <span class="badge">test</span>}
          </td>
          <td>{v.currentStep}</td>
          <td>{v.segment}</td>
          <td>{v.trackingId ?? '—'}</td>
          <td>
            <code>{v.programId}</code>
          </td>
          <td>
            <Time value={v.updated} />
          </td>
        </tr>
      )}
    />
  );
}
