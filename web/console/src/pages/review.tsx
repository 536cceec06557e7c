import { useEffect, useRef, useState } from 'preact/hooks';
import {
  csrfHeaders,
  decideReview,
  getReview,
  getVerification,
  samePath,
  type Failure,
  type ReviewDetail,
} from '../api';
import { claimReview, releaseReview, releaseReviewAsPageLeaves, type ClaimedReview } from '../api-calls';
import { setFlash } from '../flash';
import { ensureQueue, forget, neighbour } from '../queue';
import { MAX_REJECTION_REASONS, REJECTION_REASONS } from '../rejection-reasons';
import { Link, navigate } from '../router';
import { hrefOf } from '../routes';
import { useShortcuts } from '../shortcuts';
import { formatTime, PageTitle, Pending, Problem, useLoad, useStaff } from '../ui';

/** Where the reviewer's claim on the review stands. */
type Claim =
  | { state: 'claiming' }
  | { state: 'mine'; expiresAt: string | null }
  /** Another reviewer holds a live claim: this one may look, not decide. */
  | { state: 'elsewhere' }
  /** The claim failed otherwise (decided meanwhile, refused): the decision says what the API allows. */
  | { state: 'none'; failure: Failure };

/** The shortest wait before a claim is renewed (its lease is minutes long). */
const MIN_RENEW_MS = 10_000;

/**
 * One review: its files inline beside what the person submitted, and the decision. Opening it claims it (so
 * that two reviewers do not decide the same review), leaving it releases the claim; a claim held by someone
 * else is shown, and the decision is offered only to its holder.
 */
export function ReviewPage({ reviewId }: { reviewId: string }) {
  const { may } = useStaff();
  const [review, reloadReview, setReview] = useLoad(() => getReview(reviewId), [reviewId]);
  const [claim, setClaim] = useState<Claim>({ state: 'claiming' });
  const [rejecting, setRejecting] = useState(false);
  const [reasons, setReasons] = useState<string[]>([]);
  const [reasonsProblem, setReasonsProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [decisionFailure, setDecisionFailure] = useState<Failure>();
  const decided = useRef(false);
  const reasonsBox = useRef<HTMLFieldSetElement>(null);

  useEffect(() => void ensureQueue(), []);

  // Claim on opening (and again before the lease runs out); release on leaving, the tab's closing included.
  useEffect(() => {
    let current = true;
    let mine = false;
    let renew: ReturnType<typeof setTimeout> | undefined;
    const claimOnce = async () => {
      const outcome = await claimReview(reviewId);
      if (!current) {
        if (outcome.ok) void releaseReview(reviewId);
        return;
      }
      if (outcome.ok) {
        mine = true;
        const claimed: ClaimedReview = outcome.data;
        setClaim({ state: 'mine', expiresAt: claimed.claimExpiresAt ?? null });
        if (claimed.reviewId) setReview(claimed);
        const left = claimed.claimExpiresAt ? Date.parse(claimed.claimExpiresAt) - Date.now() : NaN;
        if (Number.isFinite(left))
          renew = setTimeout(() => void claimOnce(), Math.max(MIN_RENEW_MS, left / 2));
      } else if (outcome.failure.status === 409 && outcome.failure.errorIds.includes('reviewClaimed')) {
        mine = false;
        setClaim({ state: 'elsewhere' });
      } else if (!mine) {
        setClaim({ state: 'none', failure: outcome.failure });
      }
    };
    void claimOnce();
    const leaving = () => {
      if (mine && !decided.current) releaseReviewAsPageLeaves(reviewId, csrfHeaders('DELETE'));
    };
    window.addEventListener('pagehide', leaving);
    return () => {
      current = false;
      clearTimeout(renew);
      window.removeEventListener('pagehide', leaving);
      if (mine && !decided.current) void releaseReview(reviewId);
    };
  }, [reviewId]);

  const pending = review.state === 'ready' && review.data.status === 'pending';
  const canDecide =
    pending && claim.state !== 'elsewhere' && claim.state !== 'claiming' && may('adminDecideReview');

  const decide = async (decision: 'approve' | 'reject') => {
    if (!canDecide || busy) return;
    if (decision === 'reject' && reasons.length === 0) {
      setReasonsProblem('Choose at least one reason.');
      reasonsBox.current?.querySelector('input')?.focus();
      return;
    }
    setBusy(true);
    setDecisionFailure(undefined);
    const next = neighbour(reviewId, 1);
    const outcome = await decideReview(reviewId, decision, reasons);
    setBusy(false);
    if (outcome.ok) {
      decided.current = true;
      forget(reviewId);
      setFlash(decision === 'approve' ? 'Review approved.' : `Review rejected (${reasons.join(', ')}).`);
      navigate(
        next && next !== reviewId ? hrefOf({ page: 'review', reviewId: next }) : hrefOf({ page: 'reviews' }),
      );
      return;
    }
    if (outcome.failure.status === 409 && outcome.failure.errorIds.includes('reviewClaimed'))
      setClaim({ state: 'elsewhere' });
    else if (outcome.failure.status === 409) reloadReview();
    setDecisionFailure(outcome.failure);
  };

  const openReject = () => {
    if (!canDecide) return;
    setRejecting(true);
    setTimeout(() => reasonsBox.current?.querySelector('input')?.focus(), 0);
  };
  const go = (step: 1 | -1) => {
    const to = neighbour(reviewId, step);
    if (to && to !== reviewId) navigate(hrefOf({ page: 'review', reviewId: to }));
  };
  useShortcuts({
    // Not while choosing rejection reasons: a stray key there must not approve.
    a: rejecting ? undefined : () => void decide('approve'),
    r: openReject,
    j: () => go(1),
    k: () => go(-1),
    u: () => navigate(hrefOf({ page: 'reviews' })),
  });

  const toggle = (code: string, on: boolean) => {
    setReasonsProblem('');
    setReasons((list) => (on ? [...list.filter((c) => c !== code), code] : list.filter((c) => c !== code)));
  };

  return (
    <>
      <p class="crumbs">
        <Link href={hrefOf({ page: 'reviews' })}>Review queue</Link>
      </p>
      <PageTitle>Document review</PageTitle>
      <Pending load={review} what="open this review" />
      {review.state === 'ready' && (
        <div class="review">
          <section class="review__files" aria-labelledby="files-title">
            <h2 id="files-title">Files</h2>
            <Files review={review.data} />
          </section>
          <div class="review__side">
            <section aria-labelledby="state-title" class="panel">
              <h2 id="state-title">Review</h2>
              <ClaimLine claim={claim} />
              <dl class="facts">
                <dt>Status</dt>
                <dd id="review-status">{review.data.status}</dd>
                <dt>Submitted</dt>
                <dd>{formatTime(review.data.submittedAt)}</dd>
                <dt>Program</dt>
                <dd>
                  <code>{review.data.programId}</code>
                  {review.data.testMode && <span class="badge">test</span>}
                </dd>
                {review.data.decidedAt && (
                  <>
                    <dt>Decided</dt>
                    <dd>
                      {formatTime(review.data.decidedAt)} by {review.data.decidedBy}
                    </dd>
                  </>
                )}
                {review.data.rejectionReasons.length > 0 && (
                  <>
                    <dt>Reasons</dt>
                    <dd>{review.data.rejectionReasons.join(', ')}</dd>
                  </>
                )}
              </dl>
              {decisionFailure && <Problem failure={decisionFailure} what="decide this review" />}
              {canDecide && (
                <div class="decision">
                  <button
                    type="button"
                    class="button--approve"
                    disabled={busy}
                    onClick={() => void decide('approve')}
                  >
                    Approve <kbd aria-hidden="true">a</kbd>
                  </button>
                  <button
                    type="button"
                    class="button--reject"
                    disabled={busy}
                    aria-expanded={rejecting}
                    aria-controls="reject-form"
                    onClick={() => (rejecting ? setRejecting(false) : openReject())}
                  >
                    Reject… <kbd aria-hidden="true">r</kbd>
                  </button>
                </div>
              )}
              {canDecide && rejecting && (
                <form
                  id="reject-form"
                  class="reject"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void decide('reject');
                  }}
                >
                  <fieldset
                    ref={reasonsBox}
                    aria-describedby={reasonsProblem ? 'reasons-problem' : undefined}
                  >
                    <legend>Rejection reasons (the person sees them)</legend>
                    {REJECTION_REASONS.map((r) => (
                      <label key={r.code} class="check">
                        <input
                          type="checkbox"
                          value={r.code}
                          checked={reasons.includes(r.code)}
                          disabled={!reasons.includes(r.code) && reasons.length >= MAX_REJECTION_REASONS}
                          onChange={(e) => toggle(r.code, e.currentTarget.checked)}
                        />
                        {r.label} <code>{r.code}</code>
                      </label>
                    ))}
                  </fieldset>
                  {reasonsProblem && (
                    <p class="field__error" id="reasons-problem" role="alert">
                      {reasonsProblem}
                    </p>
                  )}
                  <button type="submit" class="button--reject" disabled={busy}>
                    Reject
                    {reasons.length > 0
                      ? ` with ${reasons.length} reason${reasons.length > 1 ? 's' : ''}`
                      : ''}
                  </button>
                </form>
              )}
            </section>
            <section aria-labelledby="person-title" class="panel">
              <h2 id="person-title">What the person submitted</h2>
              <Submitted verificationId={review.data.verificationId} />
            </section>
          </div>
        </div>
      )}
    </>
  );
}

function ClaimLine({ claim }: { claim: Claim }) {
  switch (claim.state) {
    case 'claiming':
      return <p class="muted">Claiming the review…</p>;
    case 'mine':
      return (
        <p class="claim claim--mine" id="claim-state">
          Claimed by you{claim.expiresAt ? ` until ${formatTime(claim.expiresAt)}` : ''}: nobody else can
          decide it while it is open here.
        </p>
      );
    case 'elsewhere':
      return (
        <p class="claim claim--elsewhere" id="claim-state" role="alert">
          Claimed by someone else: another reviewer has this review open. You can look at it, but not decide
          it until they leave it or their claim runs out.
        </p>
      );
    case 'none':
      return (
        <p class="claim muted" id="claim-state">
          Not claimed (
          {claim.failure.status === 409 ? 'decided already' : `Eligo answered ${claim.failure.status}`}).
        </p>
      );
  }
}

/** Each file inline: images as images, PDFs in a frame (both from Eligo's own origin), others as a link. */
function Files({ review }: { review: ReviewDetail }) {
  if (review.filesDeletedAt)
    return <p class="muted">The files were deleted by retention on {formatTime(review.filesDeletedAt)}.</p>;
  if (review.files.length === 0) return <p class="muted">This review has no files to show.</p>;
  return (
    <>
      {review.files.map((file) => {
        const doc = review.documents.find((d) => d.documentId === file.documentId);
        const name = doc?.fileName ?? file.documentId;
        const src = samePath(file.url);
        const type = doc?.mimeType ?? '';
        return (
          <figure class="file" key={file.documentId}>
            {type.startsWith('image/') ? (
              <img src={src} alt={`The uploaded file ${name}`} />
            ) : type === 'application/pdf' ? (
              <iframe src={src} title={`The uploaded file ${name}`} />
            ) : null}
            <figcaption>
              {name} <span class="muted">({type || 'unknown type'})</span> —{' '}
              <a href={src} target="_blank" rel="noopener noreferrer">
                open in a new tab
              </a>
            </figcaption>
          </figure>
        );
      })}
    </>
  );
}

/** The person's data as the verification holds it (GET /verifications/{verificationId}), beside the files. */
function Submitted({ verificationId }: { verificationId: string }) {
  const [load] = useLoad(() => getVerification(verificationId), [verificationId]);
  if (load.state !== 'ready') return <Pending load={load} what="read the verification" />;
  const verification = load.data;
  const { details } = verification;
  const person = details.personInfo;
  return (
    <dl class="facts" id="submitted">
      <dt>Name</dt>
      <dd id="submitted-name">{person ? `${person.firstName} ${person.lastName}` : '—'}</dd>
      <dt>Email</dt>
      <dd>{person?.email || '—'}</dd>
      <dt>Birth date</dt>
      <dd>{person?.birthDate || '—'}</dd>
      <dt>Organization</dt>
      <dd>{person?.organization?.name ?? '—'}</dd>
      <dt>Segment</dt>
      <dd>
        {verification.segment}
        {verification.subSegment ? ` (${verification.subSegment})` : ''}
      </dd>
      <dt>Rejections so far</dt>
      <dd>
        {details.docUploadRejectionCount}
        {details.docUploadRejectionReasons.length > 0
          ? ` (${details.docUploadRejectionReasons.join(', ')})`
          : ''}
      </dd>
      <dt>Tracking id</dt>
      <dd>{details.trackingId || '—'}</dd>
      <dt>Verification</dt>
      <dd>
        <Link href={hrefOf({ page: 'verification', verificationId })}>{verificationId}</Link>
      </dd>
    </dl>
  );
}
