import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP address literals a webhook callback may name: the notifier's SSRF guard
 * (services/notifier/src/delivery/ssrf-guard.ts) applied when the webhook is configured, so that a URL the
 * notifier would refuse at every delivery is refused at once with a 400 instead of failing for days. Services
 * share no code, so the rule is copied here, with the same library and the same allow-list setting
 * (ELIGO_WEBHOOK_ALLOW_CIDRS); keep the two in step. Host names are not resolved: DNS answers change, and
 * the notifier still checks the address it connects to.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Parsed ELIGO_WEBHOOK_ALLOW_CIDRS: ranges allowed even though they are not public unicast. */
export type AllowCidrs = readonly (readonly [Address, number])[];

export const NO_ALLOWED_CIDRS: AllowCidrs = [];

/**
 * An address as a socket reads it, or undefined. net.isIP first: ipaddr also accepts forms like `0x7f.1`.
 * IPv6 through the WHATWG serialisation (hex groups, no zone), as ipaddr reads `::a.b.c.d` as ::ffff:a.b.c.d.
 */
function parseAddress(text: string): Address | undefined {
  const family = isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text);
  if (family !== 6) return undefined;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${text.replace(/%.*$/, '')}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

/** `127.0.0.0/8, ::1/128` → ranges; empty text → none. Throws naming the first bad entry (fail fast at boot). */
export function parseAllowCidrs(text: string): AllowCidrs {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') return NO_ALLOWED_CIDRS;
  return entries.map((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    const parsed = parseAddress(address ?? '');
    const prefix = /^\d{1,3}$/.test(bits ?? '') ? Number(bits) : NaN;
    if (!parsed || rest.length > 0 || !(prefix <= (parsed.kind() === 'ipv4' ? 32 : 128)))
      throw new Error(`allow-list entry "${entry}" is not a CIDR (like 127.0.0.0/8 or ::1/128)`);
    return [parsed, prefix] as const;
  });
}

function allowedByList(address: Address, allow: AllowCidrs): boolean {
  // ipaddr's match throws across families: only ranges of the address's own family are compared.
  return allow.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** Why an address may not be called (an ipaddr range name), or undefined when it may: public unicast only. */
function blockedRange(parsed: Address, allow: AllowCidrs): string | undefined {
  if (allowedByList(parsed, allow)) return undefined;
  const range = parsed.range();
  // ::ffff:a.b.c.d reaches the IPv4 host: allowed only when that IPv4 is on the allow-list, never as public.
  if (range === 'ipv4Mapped')
    return allowedByList((parsed as ipaddr.IPv6).toIPv4Address(), allow) ? undefined : range;
  if (range !== 'unicast') return range;
  // ::/96 (IPv4-compatible, e.g. ::127.0.0.1) is "unicast" to ipaddr but embeds an IPv4 address.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0))
    return 'ipv4Compatible';
  return undefined;
}

/**
 * For a URL's host as the URL parser gives it (IPv4 already in dotted form whatever its spelling, IPv6 in
 * brackets): the problem when it is an address literal the notifier would refuse, else undefined.
 */
export function callbackHostProblem(hostname: string, allow: AllowCidrs): string | undefined {
  const address = parseAddress(hostname.replace(/^\[(.*)\]$/, '$1'));
  const range = address && blockedRange(address, allow);
  return range ? `must not be a non-public IP address (${range})` : undefined;
}
