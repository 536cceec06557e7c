/** The program's texts, from the page's bootstrap block (its theme endpoint needs an account token). */
export interface Intl {
  locale: string;
  messages: Record<string, string>;
  errorId: Record<string, string>;
}

/** What the page starts from: the program in its path and SheerID-style query parameters. */
export interface Start {
  programId: string;
  intl: Intl | undefined;
  /** Resume this verification instead of starting one. */
  verificationId?: string;
  trackingId?: string;
  /** A BCP 47 tag from ?locale=, else the browser's; the program's theme decides when neither is usable. */
  locale?: string;
  /** Set by embed.js: the page lives in an iframe or lightbox of this merchant origin. */
  parentOrigin?: string;
  embedded: boolean;
  /** Personal fields prefilled from the query (email, firstName, ...). */
  prefill: Record<string, string>;
  /** The email-loop code of the mail's link (#emailToken=...), taken out of the URL at once. */
  emailToken?: string;
}

const PREFILL = [
  'firstName',
  'lastName',
  'email',
  'birthDate',
  'postalCode',
  'phoneNumber',
  'country',
  'city',
  'state',
  'address1',
] as const;
const PROGRAM_PATH = /\/verify\/([0-9a-f]{24})\/?$/;
const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$/;

function plain(value: string | null, max: number): string | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.length <= max && !/[\u0000-\u001f\u007f]/.test(trimmed)
    ? trimmed
    : undefined;
}

/**
 * Reads the start from the URL, then takes personal fields out of it (history.replaceState): they came from a
 * merchant's link and must not stay in the history, a bookmark or a Referer.
 */
export function readStart(location: Location, history: History): Start {
  const query = new URLSearchParams(location.search);
  const prefill: Record<string, string> = {};
  for (const key of PREFILL) {
    const value = plain(query.get(key), 254);
    if (value !== undefined) prefill[key] = value;
    query.delete(key);
  }
  if (Object.keys(prefill).length > 0) {
    const rest = query.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  }
  // The mail's link carries the code in the fragment (never sent to a server); it must not stay in the history.
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const emailToken = plain(fragment.get('emailToken'), 16);
  if (fragment.has('emailToken')) history.replaceState(null, '', `${location.pathname}${location.search}`);
  const verificationId = plain(query.get('verificationId'), 24);
  const locale = plain(query.get('locale'), 35) ?? navigator.language;
  const parentOrigin = plain(query.get('parentOrigin'), 255);
  const layout = query.get('layout');
  return {
    programId: PROGRAM_PATH.exec(location.pathname)?.[1] ?? '',
    intl: bootstrap()?.intl,
    ...(verificationId && /^[0-9a-f]{24}$/.test(verificationId) ? { verificationId } : {}),
    ...(plain(query.get('trackingId'), 256) ? { trackingId: plain(query.get('trackingId'), 256) } : {}),
    ...(locale && LOCALE.test(locale) ? { locale } : {}),
    ...(parentOrigin ? { parentOrigin } : {}),
    embedded: layout === 'embedded' || window.parent !== window,
    prefill,
    ...(emailToken && /^[\d\s-]{6,16}$/.test(emailToken) ? { emailToken } : {}),
  };
}

/** The JSON the gateway put in the page (a data block: never run as script). */
function bootstrap(): { programId: string; intl: Intl } | undefined {
  try {
    return JSON.parse(document.getElementById('eligo-bootstrap')?.textContent ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}
