/**
 * Regular-expression sources (no anchors) of IP address literals, for the URL and origin rules of the gateway's
 * checks and the programs service's validation: one spelling of the RFC 4291 text forms, so that both refuse and
 * accept exactly the same hosts.
 */
const H16 = '[0-9A-Fa-f]{1,4}';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';

/** A dotted-quad IPv4 address, each octet 0-255 without leading zeros. */
export const IPV4_SOURCE = `${OCTET}(?:\\.${OCTET}){3}`;

/** An IPv6 address in its text forms (full or with one `::`), without brackets. */
export const IPV6_SOURCE = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  `(?:${H16}:){1,6}:${H16}`,
  `(?:${H16}:){1,5}(?::${H16}){1,2}`,
  `(?:${H16}:){1,4}(?::${H16}){1,3}`,
  `(?:${H16}:){1,3}(?::${H16}){1,4}`,
  `(?:${H16}:){1,2}(?::${H16}){1,5}`,
  `${H16}:(?::${H16}){1,6}`,
  `:(?:(?::${H16}){1,7}|:)`,
].join('|');
