import { useEffect, useRef, useState } from 'preact/hooks';
import type { Verification } from '../api';
import type { Messages } from '../messages';
import { DigitsForm } from './digits-form';

/**
 * emailLoop: the person types the 6-digit code mailed to them (or follows the mail's link, whose code the page
 * reads from the URL fragment and submits once), asks for a new one, or goes to documents instead.
 */
export function EmailLoop(props: {
  verification: Verification;
  messages: Messages;
  busy: boolean;
  /** A code from the mail's link: submitted once, as soon as the step shows. */
  linkedCode?: string | undefined;
  onSubmit(body: { emailToken: string }): void;
  onResend(): Promise<boolean>;
  onCancel(): void;
}) {
  const { t } = props.messages;
  const [resent, setResent] = useState(false);
  const submittedLink = useRef(false);
  useEffect(() => {
    if (props.linkedCode && !submittedLink.current) {
      submittedLink.current = true;
      props.onSubmit({ emailToken: props.linkedCode });
    }
  }, [props.linkedCode]);
  return (
    <DigitsForm
      verification={props.verification}
      messages={props.messages}
      busy={props.busy}
      id="f-email-token"
      digits={6}
      maxLength={9}
      autocomplete="one-time-code"
      initial={props.linkedCode}
      text={{
        intro: 'step.emailLoop.copy',
        label: 'step.emailLoop.code',
        submit: 'step.emailLoop.submit',
        check: 'check.emailToken',
      }}
      onDigits={(emailToken) => props.onSubmit({ emailToken })}
      after={
        <p role="status" aria-live="polite">
          {resent ? t('step.emailLoop.resent') : ''}
        </p>
      }
    >
      <button
        type="button"
        class="button button--secondary"
        disabled={props.busy || props.verification.canResendEmailLoop !== true}
        onClick={() => void props.onResend().then(setResent)}
      >
        {t('step.emailLoop.resend')}
      </button>
      <button type="button" class="button button--secondary" disabled={props.busy} onClick={props.onCancel}>
        {t('step.emailLoop.cancel')}
      </button>
    </DigitsForm>
  );
}
