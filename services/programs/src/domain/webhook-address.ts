import { blockedRange, type AllowCidrs } from '@eligo/runtime';

/**
 * A webhook callback whose host is an IP address literal is judged when the webhook is configured, by the rule
 * the notifier applies when it connects (@eligo/runtime's address policy, with ELIGO_WEBHOOK_ALLOW_CIDRS): a
 * URL the notifier would refuse at every delivery is refused at once with a 400 instead of failing for days.
 * Host names are not resolved: DNS answers change, and the notifier still checks the address it connects to.
 */
export { NO_ALLOWED_CIDRS, parseAllowCidrs, type AllowCidrs } from '@eligo/runtime';

/**
 * For a URL's host as the URL parser gives it (IPv4 already in dotted form whatever its spelling, IPv6 in
 * brackets): the problem when it is an address literal the notifier would refuse, else undefined.
 */
export function callbackHostProblem(hostname: string, allow: AllowCidrs): string | undefined {
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  const range = blockedRange(literal, allow);
  // 'invalid' is a host name, not an address: left to the notifier's check at connect time.
  return range && range !== 'invalid' ? `must not be a non-public IP address (${range})` : undefined;
}
