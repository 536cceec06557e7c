import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may name and connect to (the SSRF guard): callback URLs are chosen by programs, so
 * without it a program could make the notifier POST into our own network (databases, metadata services, admin
 * ports). One rule, shared: the notifier judges the address it connects to, programs judges an address literal
 * when a webhook is configured, both with the same ELIGO_WEBHOOK_ALLOW_CIDRS.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Parsed ELIGO_WEBHOOK_ALLOW_CIDRS: ranges connected to even though they are not public unicast. */
export type AllowCidrs = readonly (readonly [Address, number])[];

export const NO_ALLOWED_CIDRS: AllowCidrs = [];

/**
 * Reads an address as a socket would, or undefined. net.isIP first: ipaddr also accepts forms like `0x7f.1`.
 * IPv6 goes through the WHATWG serialisation (hex groups only, no zone): ipaddr 2.5 reads `::a.b.c.d` as
 * ::ffff:a.b.c.d, whereas the socket connects to ::a.b.c.d; in hex both read the same address.
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

/** `127.0.0.0/8, ::1/128` → ranges. Empty text → none. Throws naming the first bad entry (fail fast at boot). */
export function parseAllowCidrs(text: string): AllowCidrs {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') return NO_ALLOWED_CIDRS;
  return entries.map((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    const parsed = parseAddress(address ?? '');
    const prefix = /^\d{1,3}$/.test(bits ?? '') ? Number(bits) : NaN;
    if (!parsed || rest.length > 0 || !(prefix <= (parsed.kind() === 'ipv4' ? 32 : 128))) {
      throw new Error(`allow-list entry "${entry}" is not a CIDR (like 127.0.0.0/8 or ::1/128)`);
    }
    return [parsed, prefix] as const;
  });
}

function allowedByList(address: Address, allow: AllowCidrs): boolean {
  // ipaddr's match throws across families, so only ranges of the address's own family are compared.
  return allow.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * Why an address may not be connected to (an ipaddr range name, or 'invalid'), or undefined when it may.
 * Only public unicast is allowed unless the allow-list says otherwise. The range name is safe to put in an
 * error; the address itself is not repeated there (it would tell a program about our network).
 */
export function blockedRange(address: string, allow: AllowCidrs): string | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  if (allowedByList(parsed, allow)) return undefined;
  // Everything that embeds or translates to IPv4 (6to4, Teredo, NAT64) has its own range name and is refused
  // with the rest: we do not try to judge the embedded address.
  const range = parsed.range();
  if (range === 'ipv4Mapped') {
    // ::ffff:a.b.c.d reaches the IPv4 host: allowed only when that IPv4 is on the allow-list, never as
    // "public", so that no mapped spelling slips past a check written for IPv4.
    return allowedByList((parsed as ipaddr.IPv6).toIPv4Address(), allow) ? undefined : range;
  }
  if (range !== 'unicast') return range;
  // ::/96 (deprecated IPv4-compatible, e.g. ::127.0.0.1) is "unicast" to ipaddr but embeds an IPv4 address.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    return 'ipv4Compatible';
  }
  return undefined;
}

export function isAddressAllowed(address: string, allow: AllowCidrs): boolean {
  return blockedRange(address, allow) === undefined;
}
