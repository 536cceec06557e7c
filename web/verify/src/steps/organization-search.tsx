import { useEffect, useRef, useState } from 'preact/hooks';
import { searchOrganizations, type Organization } from '../api';
import type { Messages } from '../messages';
import { describedBy } from './field-row';

export interface Chosen {
  id: number;
  name: string;
}

/**
 * Search as you type over the program's organizations (GET /program/{programId}/organization), as an ARIA 1.2
 * combobox: arrows move through the options, Enter chooses, Escape closes; the count is announced.
 */
export function OrganizationSearch(props: {
  id: string;
  programId: string;
  messages: Messages;
  value: Chosen | undefined;
  error?: string;
  onChange(value: Chosen | undefined): void;
}) {
  const { t } = props.messages;
  const [text, setText] = useState(props.value?.name ?? '');
  const [options, setOptions] = useState<Organization[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState('');
  const pending = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    if (props.value && text === props.value.name) return;
    const query = text.trim();
    pending.current?.abort();
    if (query.length < 2) {
      setOptions([]);
      setOpen(false);
      setStatus('');
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    setStatus(t('organization.searching'));
    const timer = setTimeout(() => {
      searchOrganizations(props.programId, query, controller.signal)
        .then((found) => {
          if (controller.signal.aborted) return;
          setOptions(found.slice(0, 25));
          setActive(-1);
          setOpen(true);
          setStatus(
            found.length === 0 ? t('organization.none') : t('organization.count', { count: found.length }),
          );
        })
        .catch(() => undefined);
    }, 200);
    return () => clearTimeout(timer);
  }, [text]);

  const choose = (o: Organization) => {
    props.onChange({ id: o.id, name: o.name });
    setText(o.name);
    setOpen(false);
    setStatus('');
  };
  const listId = `${props.id}-options`;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' && options.length > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % options.length);
    } else if (e.key === 'ArrowUp' && options.length > 0) {
      e.preventDefault();
      setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
    } else if (e.key === 'Enter' && open && active >= 0) {
      e.preventDefault();
      choose(options[active]!);
    } else if (e.key === 'Escape') setOpen(false);
  };

  return (
    <div class="combobox">
      <input
        id={props.id}
        type="text"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={open && options.length > 0 ? 'true' : 'false'}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          if (props.value) props.onChange(undefined);
        }}
        onKeyDown={onKeyDown}
        {...describedBy(props.id, props.error, t('organization.hint'))}
      />
      <ul id={listId} role="listbox" class="combobox__options" hidden={!open || options.length === 0}>
        {options.map((o, i) => (
          <li
            id={`${listId}-${i}`}
            key={o.id}
            role="option"
            aria-selected={i === active ? 'true' : 'false'}
            class={i === active ? 'combobox__option--active' : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(o);
            }}
          >
            {o.name}
          </li>
        ))}
      </ul>
      <p class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
