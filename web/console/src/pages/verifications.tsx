import { useState } from 'preact/hooks';
import type { Result } from '../api';
import { searchVerifications, type VerificationSearch, type VerificationSummary } from '../api-pending';
import { Link, navigate } from '../router';
import { hrefOf } from '../routes';
import { Time, Pager, PageTitle, Pending, useLoad, type Load } from '../ui';

type Kind = 'verificationId' | 'trackingId' | 'email' | 'programId';
const ID = /^[0-9a-f]{24}$/;

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'verificationId', label: 'Verification id' },
  { kind: 'trackingId', label: 'Tracking id' },
  { kind: 'email', label: "Person's email" },
  { kind: 'programId', label: 'Program id' },
];

type Page = { verifications: VerificationSummary[]; nextCursor: string | null };

/**
 * Finds verifications: by id (opens it), or by tracking id, the person's email or the program (a list, newest
 * first). What was searched stays in the page, never in its address: an email is personal data.
 */
export function VerificationsPage() {
  const [kind, setKind] = useState<Kind>('verificationId');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState('');
  const [search, setSearch] = useState<{ query: VerificationSearch; cursor?: string; round: number }>();

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
      {search && (
        <Results
          key={search.round}
          query={search.query}
          cursor={search.cursor}
          onCursor={(cursor) => setSearch((s) => s && { ...s, cursor })}
        />
      )}
    </>
  );
}

function Results(props: { query: VerificationSearch; cursor?: string; onCursor(cursor?: string): void }) {
  const [load] = useLoad<Page>(
    () => searchVerifications(props.query, props.cursor) as Promise<Result<Page>>,
    [props.cursor],
  );
  return <VerificationList load={load} atFirst={props.cursor === undefined} onCursor={props.onCursor} />;
}

function VerificationList(props: { load: Load<Page>; atFirst: boolean; onCursor(cursor?: string): void }) {
  const { load } = props;
  if (load.state !== 'ready') return <Pending load={load} what="search the verifications" />;
  if (load.data.verifications.length === 0) return <p class="empty">No verification found.</p>;
  return (
    <>
      <table class="list">
        <caption class="visually-hidden">Verifications found, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Verification</th>
            <th scope="col">Step</th>
            <th scope="col">Segment</th>
            <th scope="col">Tracking id</th>
            <th scope="col">Program</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {load.data.verifications.map((v) => (
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
          ))}
        </tbody>
      </table>
      <Pager
        next={load.data.nextCursor}
        atFirst={props.atFirst}
        onNext={() => props.onCursor(load.data.nextCursor ?? undefined)}
        onFirst={() => props.onCursor(undefined)}
      />
    </>
  );
}
