import type { ComponentChildren, Ref, VNode } from 'preact';
import { useState } from 'preact/hooks';
import type { Result } from './api';
import { Pending, useLoad, type Load } from './ui';

/** A list the admin API answers one page at a time, through an opaque cursor. */
export interface Pages<T> {
  load: Load<T>;
  /** Loads the page shown again. */
  reload(): void;
  /** Back to the first page: what a new filter starts from. */
  first(): void;
  /** On to the page after the one shown. */
  next(): void;
  atFirst: boolean;
  /** The cursor of the page after the one shown; null on the last page or while none is shown. */
  following: string | null;
}

type Loader<T> = (cursor: string | undefined) => Promise<Result<T>>;
type Paged = { nextCursor: string | null };

/**
 * Loads the page of the cursor (the first page at first) on mount, whenever `deps` change and when paging.
 * Most lists name their next page nextCursor; the others say where theirs is (`nextOf`).
 */
export function usePages<T extends Paged>(load: Loader<T>, deps: unknown[]): Pages<T>;
export function usePages<T>(load: Loader<T>, deps: unknown[], nextOf: (data: T) => string | null): Pages<T>;
export function usePages<T>(
  load: Loader<T>,
  deps: unknown[],
  nextOf: (data: T) => string | null = (data) => (data as Paged).nextCursor,
): Pages<T> {
  const [cursor, setCursor] = useState<string | undefined>();
  const [value, reload] = useLoad(() => load(cursor), [...deps, cursor]);
  const following = value.state === 'ready' ? nextOf(value.data) : null;
  return {
    load: value,
    reload,
    first: () => setCursor(undefined),
    next: () => following && setCursor(following),
    atFirst: cursor === undefined,
    following,
  };
}

/** Forward paging with a way back to the first page, once a page is shown and when there is somewhere to go. */
export function Pager({ pages }: { pages: Pages<unknown> }) {
  if (pages.load.state !== 'ready' || (!pages.following && pages.atFirst)) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="button--quiet" disabled={pages.atFirst} onClick={pages.first}>
        First page
      </button>
      <button type="button" class="button--quiet" disabled={!pages.following} onClick={pages.next}>
        Next page
      </button>
    </nav>
  );
}

interface ListTableProps<R> {
  /** Said to screen readers only: what the rows are, in which order. */
  caption: string;
  heads: ComponentChildren[];
  rows: R[];
  /** The row of an item: a <tr> with its key. */
  row(item: R, index: number): VNode;
  tableRef?: Ref<HTMLTableElement>;
}

/** A list as a table: a caption, one header row, a row per item. */
export function ListTable<R>(props: ListTableProps<R>) {
  return (
    // Scrolls sideways on a narrow screen rather than squeezing its columns to a letter each.
    <div class="table-scroll">
      <table class="list" ref={props.tableRef}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.heads.map((head, i) => (
              <th key={i} scope="col">
                {head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.rows.map((item, i) => props.row(item, i))}</tbody>
      </table>
    </div>
  );
}

/**
 * A paged list as a table: the busy line or the problem until the page is in, then the table (or `empty` when
 * the page has no row and `empty` is given) and the pager.
 */
export function PagedTable<T, R>(
  props: Omit<ListTableProps<R>, 'rows'> & {
    pages: Pages<T>;
    /** What loading the list is for, in the problem's words: "list the accounts". */
    what: string;
    rows(data: T): R[];
    empty?: ComponentChildren;
    /** What the page's answer shows above the table. */
    above?(data: T): ComponentChildren;
  },
) {
  const { pages, rows, empty, above, what, ...table } = props;
  if (pages.load.state !== 'ready') return <Pending load={pages.load} what={what} />;
  const items = rows(pages.load.data);
  return (
    <>
      {above?.(pages.load.data)}
      {items.length === 0 && empty !== undefined ? (
        <p class="empty">{empty}</p>
      ) : (
        <ListTable {...table} rows={items} />
      )}
      <Pager pages={pages} />
    </>
  );
}
