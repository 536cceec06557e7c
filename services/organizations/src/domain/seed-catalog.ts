import { fold } from './fold';
import { parseHost } from './hosts';
import { classifyFolded } from './institution-type';
import type { OrganizationDraft } from './organization';
import { MAX_NAME_LENGTH } from './organization-input';
import { countryOfTld } from './tld-country';

/**
 * The swot catalog seed as rules: which of swot's academic domains become organizations, and how they group.
 * Reading swot's files is adapters/swot-data.ts; writing the rows is the seed migration (002_seed_catalog).
 */

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
