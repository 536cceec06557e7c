import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Verification } from '../api';
import type { Messages } from '../messages';
import { describedBy, FieldRow } from './field-row';

/**
 * A step that asks for a number of a fixed length (a social security number, a mailed code): spaces and dashes
 * the person types are dropped, a wrong length is said before anything is sent, the server's error is shown
 * under the field, and the step's other buttons follow the submit button.
 */
export function DigitsForm(props: {
  verification: Verification;
  messages: Messages;
  busy: boolean;
  id: string;
  digits: number;
  /** The digits with the separators a person may type (123-45-6789, 123 456). */
  maxLength: number;
  /** Keys of the messages: the intro, the field's label, the submit button, the wrong-length problem. */
  text: { intro: string; label: string; submit: string; check: string };
  autocomplete: string;
  initial?: string | undefined;
  onDigits(digits: string): void;
  children?: ComponentChildren;
  after?: ComponentChildren;
}) {
  const { t } = props.messages;
  const [value, setValue] = useState(props.initial ?? '');
  const [problem, setProblem] = useState('');
  const error = problem || (props.verification.errorIds ?? []).map(props.messages.error)[0];
  return (
    <form
      class="step"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const digits = value.replace(/[\s-]/g, '');
        if (!new RegExp(`^\\d{${props.digits}}$`).test(digits)) {
          setProblem(t(props.text.check));
          return;
        }
        props.onDigits(digits);
      }}
    >
      <p class="step__intro">{t(props.text.intro)}</p>
      <FieldRow id={props.id} label={t(props.text.label)} error={error}>
        <input
          id={props.id}
          type="text"
          inputMode="numeric"
          autocomplete={props.autocomplete}
          maxLength={props.maxLength}
          value={value}
          onInput={(e) => {
            setValue(e.currentTarget.value);
            setProblem('');
          }}
          {...describedBy(props.id, error)}
        />
      </FieldRow>
      <div class="actions">
        <button type="submit" class="button" disabled={props.busy}>
          {t(props.text.submit)}
        </button>
        {props.children}
      </div>
      {props.after}
    </form>
  );
}
