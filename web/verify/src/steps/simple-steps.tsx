import { useEffect, useState } from 'preact/hooks';
import { readVerification, type Verification } from '../api';
import { humanize, type Messages } from '../messages';
import { DigitsForm } from './digits-form';
import { describedBy } from './field-row';

/** collectMilitaryStatus: one of the statuses the program offers. */
export function MilitaryStatus(props: {
  verification: Verification;
  messages: Messages;
  busy: boolean;
  onSubmit(body: { status: string }): void;
}) {
  const { t } = props.messages;
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState('');
  const serverError = (props.verification.errorIds ?? []).map(props.messages.error)[0];
  const error = problem || serverError;
  return (
    <form
      class="step"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!status) {
          setProblem(t('field.required', { field: t('field.status') }));
          return;
        }
        props.onSubmit({ status });
      }}
    >
      <fieldset class="field" {...describedBy('f-status', error)}>
        <legend>{t('field.status')}</legend>
        {(props.verification.availableStatuses ?? []).map((s) => (
          <label key={s} class="check">
            <input
              type="radio"
              name="status"
              value={s}
              checked={status === s}
              onChange={() => {
                setStatus(s);
                setProblem('');
              }}
            />
            {t(`status.${s}`) === `status.${s}` ? humanize(s) : t(`status.${s}`)}
          </label>
        ))}
        {error ? (
          <p class="field__error" id="f-status-error">
            {error}
          </p>
        ) : null}
      </fieldset>
      <button type="submit" class="button" disabled={props.busy}>
        {t('step.collectMilitaryStatus.submit')}
      </button>
    </form>
  );
}

/** collectSocialSecurityNumber: nine digits, used once for the match and never stored; or skip to documents. */
export function SocialSecurityNumber(props: {
  verification: Verification;
  messages: Messages;
  busy: boolean;
  onSubmit(body: { socialSecurityNumber: string }): void;
  onSkip(): void;
}) {
  return (
    <DigitsForm
      verification={props.verification}
      messages={props.messages}
      busy={props.busy}
      id="f-ssn"
      digits={9}
      maxLength={11}
      autocomplete="off"
      text={{
        intro: 'step.collectSocialSecurityNumber.intro',
        label: 'field.socialSecurityNumber',
        submit: 'step.collectSocialSecurityNumber.submit',
        check: 'check.ssn',
      }}
      onDigits={(socialSecurityNumber) => props.onSubmit({ socialSecurityNumber })}
    >
      <button type="button" class="button button--secondary" disabled={props.busy} onClick={props.onSkip}>
        {props.messages.t('step.collectSocialSecurityNumber.skip')}
      </button>
    </DigitsForm>
  );
}

/** sso: the person signs in at their organization (a redirect), or goes to documents instead. */
export function SingleSignOn(props: {
  verification: Verification;
  messages: Messages;
  busy: boolean;
  onSkip(): void;
}) {
  const { t } = props.messages;
  const signIn = `/rest/v2/verification/${props.verification.verificationId}/step/sso`;
  return (
    <div class="step">
      <p class="step__intro">{t('step.sso.intro')}</p>
      <div class="actions">
        {/* The whole window: providers refuse to be framed, and the sign-in comes back to the hosted page. */}
        <a class="button" href={signIn} target="_top">
          {t('step.sso.submit')}
        </a>
        <button type="button" class="button button--secondary" disabled={props.busy} onClick={props.onSkip}>
          {t('step.sso.skip')}
        </button>
      </div>
    </div>
  );
}

const POLL_MS = 5000;

/** pending: a review runs; the page asks again every few seconds and moves on by itself. */
export function Pending(props: {
  verification: Verification;
  messages: Messages;
  onChange(v: Verification): void;
}) {
  const { t } = props.messages;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      const outcome = await readVerification(props.verification.verificationId);
      if (stopped) return;
      if ('verification' in outcome && outcome.verification.currentStep !== 'pending')
        return props.onChange(outcome.verification);
      timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.verification.verificationId]);
  const estimate = props.verification.estimatedReviewTime;
  return (
    <div class="step">
      <div class="spinner" aria-hidden="true" />
      <p class="step__intro">{t('step.pending.intro')}</p>
      {estimate ? <p>{t('step.pending.estimate', { time: humanize(estimate).toLowerCase() })}</p> : null}
    </div>
  );
}

/** success: the reward code to copy, and the program's redirect. */
export function Success(props: { verification: Verification; messages: Messages }) {
  const { t } = props.messages;
  const [copied, setCopied] = useState(false);
  const code = props.verification.rewardCode;
  const redirect = props.verification.redirectUrl;
  return (
    <div class="step">
      {code ? (
        <>
          <p class="step__intro">{t('step.success.intro')}</p>
          <p class="code">
            <span class="code__label">{t('step.success.code')}</span>
            <output class="code__value" id="reward-code">
              {code}
            </output>
          </p>
          <button
            type="button"
            class="button button--secondary"
            onClick={() => void navigator.clipboard?.writeText(code).then(() => setCopied(true))}
          >
            {t('step.success.copy')}
          </button>
          <p role="status" aria-live="polite" class="copied">
            {copied ? t('step.success.copied') : ''}
          </p>
        </>
      ) : (
        <p class="step__intro">{t('step.success.noCode')}</p>
      )}
      {redirect && /^https?:\/\//.test(redirect) ? (
        <a class="button" href={redirect} rel="noopener noreferrer" target="_top">
          {t('step.success.continue')}
        </a>
      ) : null}
    </div>
  );
}

/** error: the themed text of each errorId (the systemErrorMessage is the integrator's, never shown). */
export function ErrorStep(props: { verification: Verification; messages: Messages }) {
  const errorIds = props.verification.errorIds ?? [];
  return (
    <div class="step">
      {errorIds.map((e) => (
        <p key={e} class="step__intro">
          {props.messages.error(e)}
        </p>
      ))}
    </div>
  );
}
