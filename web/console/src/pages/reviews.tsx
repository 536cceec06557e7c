import { segmentNames } from '@eligo/vocabulary';
import { useRef, useState } from 'preact/hooks';
import { listPendingReviews, type PendingReview } from '../api-calls';
import { PagedTable, usePages } from '../paged-table';
import { rememberQueue } from '../queue';
import { claimText } from '../words';
import { Link, navigate } from '../router';
import { hrefOf } from '../routes';
import { useShortcuts } from '../shortcuts';
import { formatTime, Options, Time, PageTitle, useStaff } from '../ui';

/**
 * The pending document reviews, oldest first (the person who waited longest comes first), filtered by
 * program and segment. j and k move through the list, o (or Enter) opens the review.
 */
export function ReviewsPage(props: { programId?: string; segment?: string }) {
  const { member } = useStaff();
  const filters = {
    ...(props.programId ? { programId: props.programId } : {}),
    ...(props.segment ? { segment: props.segment } : {}),
  };
  const pages = usePages(async (cursor) => {
    const page = await listPendingReviews(filters, cursor);
    if (page.ok)
      rememberQueue(
        filters,
        page.data.reviews.map((r) => r.reviewId),
      );
    return page;
  }, []);
  const [programId, setProgramId] = useState(props.programId ?? '');
  const [segment, setSegment] = useState(props.segment ?? '');
  const [programProblem, setProgramProblem] = useState('');
  const table = useRef<HTMLTableElement>(null);

  const links = () => Array.from(table.current?.querySelectorAll<HTMLAnchorElement>('a.review-link') ?? []);
  const move = (step: 1 | -1) => {
    const all = links();
    if (all.length === 0) return;
    const at = all.findIndex((a) => a === document.activeElement);
    const target =
      at === -1
        ? all[step === 1 ? 0 : all.length - 1]
        : all[Math.min(all.length - 1, Math.max(0, at + step))];
    target?.focus();
  };
  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    o: () => {
      const focused = links().find((a) => a === document.activeElement) ?? links()[0];
      if (focused) navigate(focused.getAttribute('href')!);
    },
  });

  const applyFilters = (e: Event) => {
    e.preventDefault();
    const id = programId.trim();
    if (id && !/^[0-9a-f]{24}$/.test(id)) {
      setProgramProblem('A program id is 24 characters, 0-9 and a-f.');
      return;
    }
    setProgramProblem('');
    navigate(hrefOf({ page: 'reviews', programId: id || undefined, segment: segment || undefined }));
  };

  return (
    <>
      <PageTitle>Review queue</PageTitle>
      <p class="muted">
        Pending document reviews, oldest first. Press j and k to move, o to open, ? for help.
      </p>
      <form class="filters" onSubmit={applyFilters} aria-label="Filter the queue">
        <div class="field">
          <label for="filter-program">Program id</label>
          <input
            id="filter-program"
            class="id"
            value={programId}
            onInput={(e) => setProgramId(e.currentTarget.value)}
            aria-invalid={programProblem ? 'true' : undefined}
            aria-describedby={programProblem ? 'filter-program-error' : undefined}
            spellcheck={false}
          />
          {programProblem && (
            <p class="field__error" id="filter-program-error">
              {programProblem}
            </p>
          )}
        </div>
        <div class="field">
          <label for="filter-segment">Segment</label>
          <select id="filter-segment" value={segment} onChange={(e) => setSegment(e.currentTarget.value)}>
            <Options none="Any segment" values={segmentNames} />
          </select>
        </div>
        <button type="submit">Filter</button>
        <button type="button" class="button--quiet" onClick={pages.reload}>
          Refresh
        </button>
      </form>
      <PagedTable
        pages={pages}
        what="list the reviews"
        rows={(data) => data.reviews}
        empty={<>No review is waiting{props.programId || props.segment ? ' with these filters' : ''}.</>}
        tableRef={table}
        caption="Pending reviews, oldest first"
        heads={[
          'Submitted',
          'Program',
          'Segment',
          'Files',
          'Claim',
          <span class="visually-hidden">Open</span>,
        ]}
        row={(r: PendingReview) => (
          <tr key={r.reviewId}>
            <td>
              <Time value={r.submittedAt} />
            </td>
            <td>
              <code>{r.programId}</code>
              {r.testMode && <span class="badge">test</span>}
            </td>
            <td>{r.segment ?? '—'}</td>
            <td>{r.documents.length}</td>
            <td>{claimText(r.claimedBy, member.staffId)}</td>
            <td>
              <Link class="review-link" href={hrefOf({ page: 'review', reviewId: r.reviewId })}>
                Open review <span class="visually-hidden">submitted {formatTime(r.submittedAt)}</span>
              </Link>
            </td>
          </tr>
        )}
      />
    </>
  );
}
