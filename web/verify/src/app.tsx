import { useEffect, useRef, useState } from 'preact/hooks';
import {
  readVerification,
  resendEmailCode,
  skipStep,
  startVerification,
  submitStep,
  type Outcome,
  type Verification,
} from './api';
import { announce } from './embed/page-events';
import { subjectTypeOf } from './fields';
import { messagesOf, type Messages } from './messages';
import type { Start } from './start';
import { DocUpload } from './steps/doc-upload';
import { EmailLoop } from './steps/email-loop';
import { PersonalInfo } from './steps/personal-info';
import {
  ErrorStep,
  MilitaryStatus,
  Pending,
  SingleSignOn,
  SocialSecurityNumber,
  Success,
} from './steps/simple-steps';

type Load = { state: 'loading' } | { state: 'failed'; retry: () => void } | { state: 'ready' };

/** The step's heading key: collect<Type>PersonalInfo steps share one. */
function titleKey(step: string): string {
  return subjectTypeOf(step) ? 'step.collectPersonalInfo.title' : `step.${step}.title`;
}

/**
 * The hosted verification form: starts (or resumes) a verification, then shows whatever step it is at; every
 * answer, a recoverable error included, is the verification's new state.
 */
export function App({ start }: { start: Start }) {
  const [messages] = useState<Messages>(() => messagesOf(start.intl));
  const [verification, setVerification] = useState<Verification>();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  const apply = (outcome: Outcome, retry: () => void) => {
    if ('verification' in outcome) {
      setVerification(outcome.verification);
      setLoad({ state: 'ready' });
      setNotice('');
    } else if (outcome.failure.status === 0) {
      setLoad(verification ? { state: 'ready' } : { state: 'failed', retry });
      setNotice(messages.t('page.networkError'));
    } else {
      // A refusal that is not a verification (an unknown program, a limit): shown as the error step.
      setVerification({
        verificationId: verification?.verificationId ?? '',
        currentStep: 'error',
        errorIds: outcome.failure.errorIds.length > 0 ? outcome.failure.errorIds : ['internalServerError'],
      } as Verification);
      setLoad({ state: 'ready' });
    }
  };

  const begin = async () => {
    setLoad({ state: 'loading' });
    const outcome = start.verificationId
      ? await readVerification(start.verificationId)
      : await startVerification(start.programId, start.trackingId, start.locale);
    apply(outcome, () => void begin());
  };
  useEffect(() => void begin(), []);

  // A new step: its heading takes focus, so that keyboard and screen reader users start there.
  const step = verification?.currentStep;
  useEffect(() => {
    if (!verification) return;
    heading.current?.focus();
    announce(start, verification);
  }, [step, verification?.errorIds?.join(',')]);

  const act = async (call: () => Promise<Outcome>) => {
    setBusy(true);
    const outcome = await call();
    setBusy(false);
    apply(outcome, () => void act(call));
  };

  if (load.state === 'loading') return <p class="status">{messages.t('page.loading')}</p>;
  if (load.state === 'failed' || !verification)
    return (
      <div class="step" role="alert">
        <p>{messages.t('page.networkError')}</p>
        {load.state === 'failed' ? (
          <button type="button" class="button" onClick={load.retry}>
            {messages.t('page.retry')}
          </button>
        ) : null}
      </div>
    );

  const id = verification.verificationId;
  const type = subjectTypeOf(verification.currentStep);
  let body;
  if (type)
    body = (
      <PersonalInfo
        key={verification.currentStep}
        type={type}
        verification={verification}
        programId={start.programId}
        messages={messages}
        prefill={start.prefill}
        busy={busy}
        onSubmit={(b) => void act(() => submitStep(id, verification.currentStep, b))}
      />
    );
  else if (step === 'collectMilitaryStatus')
    body = (
      <MilitaryStatus
        verification={verification}
        messages={messages}
        busy={busy}
        onSubmit={(b) => void act(() => submitStep(id, 'collectMilitaryStatus', b))}
      />
    );
  else if (step === 'collectSocialSecurityNumber')
    body = (
      <SocialSecurityNumber
        verification={verification}
        messages={messages}
        busy={busy}
        onSubmit={(b) => void act(() => submitStep(id, 'collectSocialSecurityNumber', b))}
        onSkip={() => void act(() => skipStep(id, 'collectSocialSecurityNumber'))}
      />
    );
  else if (step === 'sso')
    body = (
      <SingleSignOn
        verification={verification}
        messages={messages}
        busy={busy}
        onSkip={() => void act(() => skipStep(id, 'sso'))}
      />
    );
  else if (step === 'emailLoop')
    body = (
      <EmailLoop
        verification={verification}
        messages={messages}
        busy={busy}
        linkedCode={start.emailToken}
        onSubmit={(b) => void act(() => submitStep(id, 'emailLoop', b))}
        onResend={async () => {
          const sent = await resendEmailCode(id);
          // The answer says whether another code may be asked for (the cooldown has begun).
          const outcome = await readVerification(id);
          if ('verification' in outcome) setVerification(outcome.verification);
          return sent;
        }}
        onCancel={() => void act(() => skipStep(id, 'emailLoop'))}
      />
    );
  else if (step === 'docUpload')
    body = (
      <DocUpload
        key={verification.submissionUrl}
        verification={verification}
        messages={messages}
        onOutcome={(o) => apply(o, () => void begin())}
      />
    );
  else if (step === 'pending')
    body = <Pending verification={verification} messages={messages} onChange={setVerification} />;
  else if (step === 'success') body = <Success verification={verification} messages={messages} />;
  else body = <ErrorStep verification={verification} messages={messages} />;

  return (
    <section class={`card step--${step}`} aria-labelledby="step-title" data-step={step}>
      <h1 id="step-title" tabIndex={-1} ref={heading}>
        {messages.t(titleKey(verification.currentStep))}
      </h1>
      {notice ? (
        <p class="alert" role="alert">
          {notice}
        </p>
      ) : null}
      {body}
    </section>
  );
}
