import { IPV4_SOURCE, IPV6_SOURCE } from '@eligo/vocabulary';
import { CONTROL_CHARACTERS } from './invalid';

export const MAX_EMBED_ORIGINS = 20;
export const MAX_EMBED_ORIGIN_LENGTH = 255;

/**
 * A program's embedOrigins: the web origins allowed to embed its hosted verification page (the CSP
 * frame-ancestors of /verify/{programId}) and to call REST v2 from a browser (CORS). Each is an origin as a
 * browser sends it in the Origin header, so that the page and CORS compare strings: `https://host[:port]`, or
 * `http://localhost[:port]` / `http://127.0.0.1[:port]` for development (allowed in test and live mode alike).
 * No path, query, fragment, user name or trailing slash, and no wildcard (not in this version). The gateway's
 * schema (services/gateway/src/endpoints/program-input-rules.ts, ORIGIN_PATTERN) states the same rules; keep
 * the two in step.
 */

/**
 * Host names in ASCII (an internationalised name in its xn-- form: hyphens may follow each other inside a
 * label), IPv4 and bracketed IPv6 addresses. A last label that is numeric would be read as an IPv4 address.
 */
const LABEL = '[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*';
const TOP_LABEL = '[A-Za-z][A-Za-z0-9]*(?:-+[A-Za-z0-9]+)*';
const HOST = `(?:(?:${LABEL}\\.)*${TOP_LABEL}|${IPV4_SOURCE}|\\[(?:${IPV6_SOURCE})\\])`;
/** 1 to 65535, without leading zeros. */
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?';
const AUTHORITY = new RegExp(`^${HOST}${PORT}$`);
/** scheme://authority, then whatever follows the authority (a path, query or fragment), if anything. */
const SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
/** Hosts plain http is allowed for: the developer's own machine. */
const DEVELOPMENT_HOSTS = ['localhost', '127.0.0.1'];

/** The entry as a message quotes it: a long one is cut (the message travels in a gRPC trailer). */
function quoted(entry: string): string {
  return JSON.stringify(entry.length > 80 ? `${entry.slice(0, 80)}…` : entry);
}

/**
 * What is wrong with one entry, or its normalised form: the scheme and host in lower case and the default
 * port left out (`https://Shop.Example:443` is `https://shop.example`), as a browser serialises the origin.
 */
export function normaliseEmbedOrigin(entry: string): { origin: string } | { problem: string } {
  if ([...entry].length > MAX_EMBED_ORIGIN_LENGTH)
    return { problem: `must be at most ${MAX_EMBED_ORIGIN_LENGTH} characters` };
  if (/\s/u.test(entry) || CONTROL_CHARACTERS.test(entry)) return { problem: 'must not contain whitespace' };
  if (entry.includes('*'))
    return {
      problem:
        'is a wildcard, which is not allowed in this version: list each origin (https://shop.example.com)',
    };
  const shape = SHAPE.exec(entry);
  if (!shape) return { problem: 'is not a web origin (https://host[:port])' };
  const [, scheme, authority, rest] = shape as unknown as [string, string, string, string];
  if (!['http', 'https'].includes(scheme.toLowerCase()))
    return { problem: 'must be an https origin (http only for localhost and 127.0.0.1)' };
  if (rest !== '')
    return {
      problem:
        'must not have a path, query or fragment, not even a trailing "/" (an origin is scheme://host[:port])',
    };
  if (authority.includes('@')) return { problem: 'must not contain a user name or password' };
  if (!AUTHORITY.test(authority))
    return {
      problem:
        'must name a host (in ASCII: a host name, an IPv4 address or an [IPv6] address) and at most a ' +
        'port from 1 to 65535',
    };
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return { problem: 'is not a web origin (https://host[:port])' };
  }
  if (url.protocol === 'http:' && !DEVELOPMENT_HOSTS.includes(url.hostname))
    return { problem: 'must use https (http only for localhost and 127.0.0.1, for development)' };
  return { origin: url.origin };
}

/**
 * Normalises a program's embedOrigins and reports bad or repeated entries (repeated once normalised), each
 * naming the entry. Returns the normalised list, meaningful only when no problem was reported.
 */
export function normaliseEmbedOrigins(input: readonly string[], report: (problem: string) => void): string[] {
  if (input.length > MAX_EMBED_ORIGINS) report(`at most ${MAX_EMBED_ORIGINS} origins`);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const entry of input) {
    const result = normaliseEmbedOrigin(entry);
    if ('problem' in result) {
      report(`${quoted(entry)} ${result.problem}`);
      continue;
    }
    if (seen.has(result.origin)) report(`${result.origin} is listed twice`);
    seen.add(result.origin);
    out.push(result.origin);
  }
  return out;
}
