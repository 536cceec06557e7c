import { CONTROL_CHARACTERS } from './invalid';
import { callbackHostProblem, type AllowCidrs } from './webhook-address';

export const MAX_URL_LENGTH = 2048;

interface UrlRules {
  /** Webhook callbacks: a fragment is never sent to the server, so one in a callback is a mistake. */
  allowFragment: boolean;
  /**
   * Webhook callbacks: an IP address literal as host must be public unicast or in these ranges (the
   * notifier's rule, webhook-address.ts). Unset: any host (a redirect URL is opened by a browser).
   */
  allowCidrs?: AllowCidrs;
}

/**
 * An absolute http(s) URL a browser is sent to or a webhook is posted to. Credentials in the URL are refused:
 * they would be stored and shown in program snapshots (events, admin API) in clear.
 */
export function urlProblem(value: string, rules: UrlRules): string | undefined {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  // The URL parser silently strips surrounding whitespace and control characters; what is stored is the
  // string as given, so it must be clean as given.
  if (/\s/u.test(value) || CONTROL_CHARACTERS.test(value)) return 'must not contain whitespace';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (!rules.allowFragment && value.includes('#')) return 'must not contain a fragment (#...)';
  return rules.allowCidrs && callbackHostProblem(url.hostname, rules.allowCidrs);
}
