import { ESTIMATED_REVIEW_TIMES, MAX_REVIEW_TIMES } from '@eligo/vocabulary';
import { useState } from 'preact/hooks';
import { getProgram, updateProgram, type Failure, type ProgramConfiguration } from '../api';
import { getRewardCodePoolLevel, rotateWebhookSecret } from '../api-calls';
import { Deliveries } from '../deliveries';
import { draftOf, patchOf, type Draft } from '../program-patch';
import { Link } from '../router';
import { hrefOf } from '../routes';
import { formatTime, Options, PageTitle, Pending, Problem, Status, useLoad, useStaff } from '../ui';

/**
 * One program: its main settings (name, test or live mode, redirect, reward code, reviews) to read and change,
 * the level of its reward-code pool, its webhook's signing secret and deliveries. Each part shows only to the
 * roles that may call its operation.
 */
export function ProgramPage({ programId }: { programId: string }) {
  const { may, member } = useStaff();
  const parts = {
    settings: may('adminGetProgram'),
    pool: may('adminGetRewardCodePoolLevel'),
    secret: may('adminRotateWebhookSecret'),
    deliveries: may('adminListWebhookDeliveries'),
  };
  return (
    <>
      <p class="crumbs">
        <Link href={hrefOf({ page: 'programs' })}>Programs</Link>
      </p>
      <PageTitle>Program {programId}</PageTitle>
      {!Object.values(parts).some(Boolean) && (
        <div class="problem problem--refused" role="alert">
          <strong class="problem__title">Not allowed for your role</strong>
          <p>Your role ({member.role}) may not see programs. Ask an admin if you need to.</p>
        </div>
      )}
      {parts.settings && (
        <section class="panel" aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <Settings programId={programId} editable={may('adminUpdateProgram')} />
        </section>
      )}
      {parts.pool && (
        <section class="panel" aria-labelledby="pool-title">
          <h2 id="pool-title">Reward codes</h2>
          <PoolLevel programId={programId} />
        </section>
      )}
      {parts.secret && (
        <section class="panel" aria-labelledby="secret-title">
          <h2 id="secret-title">Webhook signing secret</h2>
          <WebhookSecret programId={programId} />
        </section>
      )}
      {parts.deliveries && (
        <section class="panel" aria-labelledby="deliveries-title">
          <h2 id="deliveries-title">Webhook deliveries</h2>
          <Deliveries programId={programId} />
        </section>
      )}
    </>
  );
}

function Settings({ programId, editable }: { programId: string; editable: boolean }) {
  const [load, , replace] = useLoad(() => getProgram(programId), [programId]);
  if (load.state !== 'ready') return <Pending load={load} what="read this program's settings" />;
  return <SettingsForm program={load.data} editable={editable} onSaved={replace} />;
}

function SettingsForm(props: {
  program: ProgramConfiguration;
  editable: boolean;
  onSaved(p: ProgramConfiguration): void;
}) {
  const { program } = props;
  const [draft, setDraft] = useState(() => draftOf(program));
  const [failure, setFailure] = useState<Failure>();
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (key: keyof Draft) => (e: { currentTarget: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.currentTarget.value }));
  const disabled = !props.editable || busy;

  const save = async (e: Event) => {
    e.preventDefault();
    const patch = patchOf(draftOf(program), draft);
    if (Object.keys(patch).length === 0) return setDone('Nothing changed.');
    setBusy(true);
    setFailure(undefined);
    const outcome = await updateProgram(program.programId, patch);
    setBusy(false);
    if (!outcome.ok) return setFailure(outcome.failure);
    setDone('Saved.');
    setDraft(draftOf(outcome.data));
    props.onSaved(outcome.data);
  };

  return (
    <form onSubmit={save} class="settings">
      <dl class="facts facts--inline">
        <dt>Account</dt>
        <dd>
          <Link href={hrefOf({ page: 'programs', accountId: program.accountId })}>{program.accountId}</Link>
        </dd>
        <dt>Segment</dt>
        <dd>{program.segment}</dd>
        <dt>Offer</dt>
        <dd>{program.offerType}</dd>
        <dt>Webhook</dt>
        <dd>{program.webhook?.callbackUri ?? 'none'}</dd>
        <dt>Updated</dt>
        <dd>{formatTime(program.updated)}</dd>
      </dl>
      <div class="field">
        <label for="program-name">Name</label>
        <input
          id="program-name"
          value={draft.name}
          onInput={set('name')}
          disabled={disabled}
          maxLength={200}
        />
      </div>
      <fieldset class="field">
        <legend>Mode</legend>
        {(['test', 'live'] as const).map((mode) => (
          <label key={mode} class="check">
            <input
              type="radio"
              name="program-mode"
              value={mode}
              checked={draft.mode === mode}
              disabled={disabled}
              onChange={() => setDraft((d) => ({ ...d, mode }))}
            />
            {mode === 'test' ? 'Test: outcomes follow the test-mode rules' : 'Live: real people, real checks'}
          </label>
        ))}
        {draft.mode === 'live' && program.mode === 'test' && (
          <p class="warning">Saving switches the program to live mode: real people get real outcomes.</p>
        )}
      </fieldset>
      <div class="field">
        <label for="program-redirect">Redirect URL after success</label>
        <input
          id="program-redirect"
          type="url"
          value={draft.redirectUrl}
          onInput={set('redirectUrl')}
          disabled={disabled}
        />
      </div>
      {program.offerType === 'staticCode' && (
        <div class="field">
          <label for="program-code">Reward code</label>
          <input id="program-code" value={draft.rewardCode} onInput={set('rewardCode')} disabled={disabled} />
        </div>
      )}
      <div class="field">
        <label for="program-rejections">Rejected reviews allowed</label>
        <input
          id="program-rejections"
          type="number"
          min={0}
          max={10}
          value={draft.maxRejections}
          onInput={set('maxRejections')}
          disabled={disabled}
        />
      </div>
      <div class="field">
        <label for="program-estimated">Usual review time</label>
        <select
          id="program-estimated"
          value={draft.estimatedReviewTime}
          onChange={set('estimatedReviewTime')}
          disabled={disabled}
        >
          <Options none="Not stated" values={ESTIMATED_REVIEW_TIMES} />
        </select>
      </div>
      <div class="field">
        <label for="program-max-review">Longest review time</label>
        <select
          id="program-max-review"
          value={draft.maxReviewTime}
          onChange={set('maxReviewTime')}
          disabled={disabled}
        >
          <Options none="Not stated" values={MAX_REVIEW_TIMES} />
        </select>
      </div>
      {failure && <Problem failure={failure} what="save the program" />}
      <Status text={done} />
      {props.editable && (
        <button type="submit" disabled={busy}>
          Save changes
        </button>
      )}
    </form>
  );
}

function PoolLevel({ programId }: { programId: string }) {
  const [load] = useLoad(() => getRewardCodePoolLevel(programId), [programId]);
  if (load.state !== 'ready') return <Pending load={load} what="read the reward-code pool" />;
  const level = load.data;
  if (!level.pooled)
    return <p class="muted">This program gives no single-use codes (no reward-code pool).</p>;
  return (
    <>
      <p id="pool-level">
        <strong>{level.unused}</strong> unused of {level.total} codes ({level.claimed} claimed).
      </p>
      {level.low && (
        <p class="warning" role="alert">
          Low: {level.unused} code{level.unused === 1 ? '' : 's'} left, under the level of{' '}
          {level.lowThreshold}. Add codes (POST /rest/admin/v1/programs/{programId}/rewardCodes) before the
          pool runs out: people verified after that get no code.
        </p>
      )}
    </>
  );
}

/** A new signing secret: the old one stops working, and the new one is shown here once, never again. */
function WebhookSecret({ programId }: { programId: string }) {
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState('');
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState('');

  const rotate = async () => {
    setBusy(true);
    setFailure(undefined);
    const outcome = await rotateWebhookSecret(programId);
    setBusy(false);
    setConfirming(false);
    if (outcome.ok) setSecret(outcome.data.webhookSecret);
    else setFailure(outcome.failure);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied.');
    } catch {
      setCopied('Select the secret and copy it.');
    }
  };

  if (secret)
    return (
      <div class="secret">
        <p class="warning" role="alert">
          The new secret is shown only now: give it to the receiver, which must check signatures with it from
          now on.
        </p>
        <label for="new-secret">New signing secret</label>
        <input
          id="new-secret"
          readOnly
          value={secret}
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" class="button--quiet" onClick={() => void copy()}>
          Copy
        </button>
        <Status text={copied} />
      </div>
    );
  return (
    <>
      <p class="muted">
        Rotating replaces the secret the webhook's signatures are made with; the old one stops working.
      </p>
      {failure &&
        (failure.status === 409 && failure.errorIds.includes('noWebhook') ? (
          <p class="problem" role="alert">
            This program has no webhook: there is no secret to rotate.
          </p>
        ) : (
          <Problem failure={failure} what="rotate the webhook secret" />
        ))}
      {!confirming ? (
        <button type="button" onClick={() => setConfirming(true)}>
          Rotate the secret…
        </button>
      ) : (
        <div role="group" aria-label="Confirm the rotation" class="confirm">
          <span>The receiver rejects deliveries until it has the new secret.</span>
          <button type="button" class="button--reject" disabled={busy} onClick={() => void rotate()}>
            Rotate now
          </button>
          <button type="button" class="button--quiet" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
    </>
  );
}
