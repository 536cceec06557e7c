import type { ComponentChildren } from 'preact';

/** A labelled control with its hint and error, tied by ids so that a screen reader reads them together. */
export function FieldRow(props: {
  id: string;
  label: string;
  optional?: string;
  error?: string;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`field${props.error ? ' field--error' : ''}`}>
      <label for={props.id}>
        {props.label}
        {props.optional ? <span class="field__optional"> {props.optional}</span> : null}
      </label>
      {props.hint ? (
        <p class="field__hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.children}
      {props.error ? (
        <p class="field__error" id={`${props.id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** aria attributes of a control inside a FieldRow. */
export function describedBy(id: string, error?: string, hint?: string) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? ('true' as const) : undefined, 'aria-describedby': ids || undefined };
}
