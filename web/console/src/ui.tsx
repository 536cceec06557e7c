import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { Failure, Result } from './api';
import { failureText } from './words';
import type { Member } from './session';

/** The signed-in member and what their role may call (bootstrap.ts), for every page. */
export interface Staff {
  member: Member;
  may(operationId: string): boolean;
}
export const StaffContext = createContext<Staff>({
  member: { staffId: '', name: '', role: '', csrfToken: '' },
  may: () => false,
});
export const useStaff = () => useContext(StaffContext);

/** The page's heading, focused when the page opens so that a screen reader starts there. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 id="page-title" tabIndex={-1} ref={heading}>
      {children}
    </h1>
  );
}

/** A failure shown where the page would have been, announced at once (role=alert). */
export function Problem({ failure, what }: { failure: Failure; what: string }) {
  const { member } = useStaff();
  const refused = failure.status === 403 && failure.errorIds.includes('insufficientRole');
  return (
    <div class={refused ? 'problem problem--refused' : 'problem'} role="alert">
      {refused && <strong class="problem__title">Not allowed for your role</strong>}
      <p>{failureText(failure, member.role, what)}</p>
    </div>
  );
}

export type Load<T> =
  { state: 'loading' } | { state: 'failed'; failure: Failure } | { state: 'ready'; data: T };

/** Loads on mount and whenever `deps` change; `reload` loads again. A stale answer is dropped. */
export function useLoad<T>(
  load: () => Promise<Result<T>>,
  deps: unknown[],
): [Load<T>, () => void, (data: T) => void] {
  const [value, setValue] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setValue({ state: 'loading' });
    void load().then((result) => {
      if (!current) return;
      setValue(
        result.ok ? { state: 'ready', data: result.data } : { state: 'failed', failure: result.failure },
      );
    });
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  const replace = useCallback((data: T) => setValue({ state: 'ready', data }), []);
  return [value, reload, replace];
}

/** The state of a load other than ready: a busy line or the problem. */
export function Pending({ load, what }: { load: Load<unknown>; what: string }) {
  if (load.state === 'loading')
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    );
  if (load.state === 'failed') return <Problem failure={load.failure} what={what} />;
  return null;
}

/** A select's options: the empty value first (`none` says what it means), then each value as its own label. */
export function Options({ none, values }: { none: string; values: readonly string[] }) {
  return (
    <>
      <option value="">{none}</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {value}
        </option>
      ))}
    </>
  );
}

/** An instant (epoch milliseconds or ISO 8601) as YYYY-MM-DD HH:MM UTC: one format, whatever the browser. */
export function formatTime(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A live region for what an action did ("Approved.", "Declined."): polite, read after the current speech. */
export function Status({ text }: { text: string }) {
  return (
    <p class="status-line" role="status" aria-live="polite">
      {text}
    </p>
  );
}

/** An instant in a table cell: on one line, with its machine-readable value. */
export function Time({ value }: { value: number | string | null | undefined }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  const date = new Date(value);
  return (
    <time class="time" dateTime={Number.isNaN(date.getTime()) ? undefined : date.toISOString()}>
      {formatTime(value)}
    </time>
  );
}
