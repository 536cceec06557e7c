/**
 * A one-line message for the next page ("Review approved.") when an action moves on to another page: shown
 * once, in the next page's status line, then gone.
 */
let pending = '';

export function setFlash(text: string): void {
  pending = text;
}

export function takeFlash(): string {
  const text = pending;
  pending = '';
  return text;
}
