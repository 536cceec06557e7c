import { useState } from 'preact/hooks';
import type { Verification } from '../api';
import { clientProblems, FIELD_OF_ERROR, fieldsOf, type Field } from '../fields';
import { humanize, type Messages } from '../messages';
import { describedBy, FieldRow } from './field-row';
import { OrganizationSearch, type Chosen } from './organization-search';
import type { SubjectType } from '@eligo/vocabulary';

function organizationLabel(messages: Messages, segment: string | null | undefined): string {
  const key = `field.organization.${segment ?? ''}`;
  const text = messages.t(key);
  return text === key ? messages.t('field.organization') : text;
}

/** The form of a collect<Type>PersonalInfo step; errors from the server show beside their fields. */
export function PersonalInfo(props: {
  type: SubjectType | 'generic';
  verification: Verification;
  programId: string;
  messages: Messages;
  prefill: Record<string, string>;
  busy: boolean;
  onSubmit(body: Record<string, unknown>): void;
}) {
  const { t } = props.messages;
  const fields = fieldsOf(props.type);
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(fields.flatMap((f) => (props.prefill[f.key] ? [[f.key, props.prefill[f.key]]] : []))),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const serverErrors: Record<string, string> = {};
  const general: string[] = [];
  for (const errorId of props.verification.errorIds ?? []) {
    const field = FIELD_OF_ERROR[errorId];
    if (field && fields.some((f) => f.key === field)) serverErrors[field] ??= props.messages.error(errorId);
    else general.push(props.messages.error(errorId));
  }
  const set = (key: string, value: unknown) => {
    setValues((v) => ({ ...v, [key]: value }));
    setProblems((p) => ({ ...p, [key]: '' }));
  };
  const labelOf = (f: Field) =>
    f.key === 'organization'
      ? organizationLabel(props.messages, props.verification.segment)
      : t(`field.${f.key}`);
  const errorOf = (f: Field) => {
    const key = problems[f.key];
    return key ? t(key, { field: labelOf(f) }) : serverErrors[f.key];
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const today = new Date().toISOString().slice(0, 10);
    const found = clientProblems(fields, values, today);
    setProblems(found);
    const first = fields.find((f) => found[f.key]);
    if (first) {
      document.getElementById(`f-${first.key}`)?.focus();
      return;
    }
    const body: Record<string, unknown> = {};
    for (const f of fields) {
      const value = values[f.key];
      if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
      body[f.key] =
        f.kind === 'organization' ? { id: (value as Chosen).id, name: (value as Chosen).name } : value;
    }
    props.onSubmit(body);
  };

  const statuses = props.verification.availableStatuses ?? [];
  return (
    <form class="step" onSubmit={submit} noValidate>
      <p class="step__intro">{t('step.collectPersonalInfo.intro')}</p>
      {general.length > 0 ? (
        <div class="alert" role="alert">
          {general.map((g) => (
            <p key={g}>{g}</p>
          ))}
        </div>
      ) : null}
      {fields.map((f) => {
        const id = `f-${f.key}`;
        const error = errorOf(f);
        const optional = f.required ? undefined : t('field.optional');
        if (f.kind === 'organization')
          return (
            <FieldRow
              key={f.key}
              id={id}
              label={labelOf(f)}
              optional={optional}
              error={error}
              hint={t('organization.hint')}
            >
              <OrganizationSearch
                id={id}
                programId={props.programId}
                messages={props.messages}
                value={values[f.key] as Chosen | undefined}
                error={error}
                onChange={(v) => set(f.key, v)}
              />
            </FieldRow>
          );
        if (f.kind === 'status')
          return (
            <FieldRow key={f.key} id={id} label={labelOf(f)} optional={optional} error={error}>
              <select
                id={id}
                value={String(values[f.key] ?? '')}
                onChange={(e) => set(f.key, e.currentTarget.value)}
                {...describedBy(id, error)}
              >
                <option value="" />
                {statuses.map((s) => (
                  <option key={s} value={s}>
                    {t(`status.${s}`) === `status.${s}` ? humanize(s) : t(`status.${s}`)}
                  </option>
                ))}
              </select>
            </FieldRow>
          );
        if (f.kind === 'statuses')
          return (
            <fieldset key={f.key} class="field" {...describedBy(id, error)}>
              <legend>
                {labelOf(f)}
                {optional ? <span class="field__optional"> {optional}</span> : null}
              </legend>
              {statuses.map((s) => {
                const chosen = ((values[f.key] as string[] | undefined) ?? []).includes(s);
                return (
                  <label key={s} class="check">
                    <input
                      type="checkbox"
                      checked={chosen}
                      onChange={() => {
                        const current = (values[f.key] as string[] | undefined) ?? [];
                        set(f.key, chosen ? current.filter((c) => c !== s) : [...current, s]);
                      }}
                    />
                    {humanize(s)}
                  </label>
                );
              })}
              {error ? (
                <p class="field__error" id={`${id}-error`}>
                  {error}
                </p>
              ) : null}
            </fieldset>
          );
        return (
          <FieldRow key={f.key} id={id} label={labelOf(f)} optional={optional} error={error}>
            <input
              id={id}
              name={f.key}
              // One input of the field's kind (text, email, tel or date).
              type={f.kind as 'text'}
              autocomplete={f.autocomplete}
              maxLength={f.maxLength}
              required={f.required}
              value={String(values[f.key] ?? '')}
              onInput={(e) => set(f.key, e.currentTarget.value)}
              {...describedBy(id, error)}
            />
          </FieldRow>
        );
      })}
      <button type="submit" class="button" disabled={props.busy}>
        {t('step.collectPersonalInfo.submit')}
      </button>
    </form>
  );
}
