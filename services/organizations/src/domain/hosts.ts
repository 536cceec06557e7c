import { getDomain, parse } from 'tldts';

/** Letters, digits and inner hyphens per label (LDH); at least two labels. Punycode (xn--) fits. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const MAX_HOST_LENGTH = 253;

/**
 * A host name as organizations list them and people type them: trimmed, lower case, with a period, and ending
 * in a suffix of the ICANN section of the Public Suffix List under a registrable name (stanford.edu,
 * cs.ox.ac.uk; not foo.notatld, not the bare suffix ac.uk). No scheme, path, port or trailing dot: a URL
 * pasted into the field is refused rather than guessed at. Returns the host, or the problem.
 */
export function parseHost(raw: string): { host: string } | { problem: string } {
  const host = raw.trim().toLowerCase();
  if (host.length === 0) return { problem: 'is required' };
  if (host.length > MAX_HOST_LENGTH) return { problem: `must be at most ${MAX_HOST_LENGTH} characters` };
  if (!host.includes('.')) return { problem: 'must contain a period (e.g. example.edu)' };
  if (!HOST.test(host))
    return { problem: 'must be a host name of letters, digits, hyphens and periods (e.g. example.edu)' };
  const parsed = parse(host);
  if (!parsed.isIcann || parsed.domain === null || parsed.hostname !== host)
    return { problem: `${host} does not end in a known top-level domain` };
  return { host };
}

/**
 * The host and each parent down to its registrable domain: cs.stanford.edu -> [cs.stanford.edu,
 * stanford.edu]. A person at a department finds the university listed under its main domain, while
 * unrelated sites under the same suffix (another.edu) are never candidates.
 */
export function domainCandidates(host: string): string[] {
  const registrable = getDomain(host);
  if (registrable === null) return [host];
  const out = [host];
  let current = host;
  while (current !== registrable && current.includes('.')) {
    current = current.slice(current.indexOf('.') + 1);
    out.push(current);
  }
  return out;
}
