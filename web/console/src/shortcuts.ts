import { useEffect, useRef } from 'preact/hooks';

/** The keyboard shortcuts, as the help dialog ("?") lists them. */
export const SHORTCUTS: readonly { keys: string; what: string; where: string }[] = [
  { keys: '?', what: 'Show or hide this help', where: 'Anywhere' },
  { keys: 'j', what: 'Next review', where: 'Review queue, a review' },
  { keys: 'k', what: 'Previous review', where: 'Review queue, a review' },
  { keys: 'o or Enter', what: 'Open the selected review', where: 'Review queue' },
  { keys: 'a', what: 'Approve the review', where: 'A review' },
  { keys: 'r', what: 'Reject: choose the reasons, then press Reject', where: 'A review' },
  { keys: 'u', what: 'Back to the queue', where: 'A review' },
];

/** Whether a key press belongs to a field (typing "a" in a reason box approves nothing). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/** The shortcut a key press stands for, or undefined: plain keys only, never while typing in a field. */
export function shortcutKey(e: KeyboardEvent): string | undefined {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return undefined;
  if (isTyping(e.target)) return undefined;
  if (document.querySelector('dialog[open]') && e.key !== '?') return undefined;
  return e.key;
}

/** Binds keys to actions while the component is shown; the latest actions are used without rebinding. */
export function useShortcuts(actions: Record<string, (() => void) | undefined>): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const key = shortcutKey(e);
      const action = key === undefined ? undefined : latest.current[key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
