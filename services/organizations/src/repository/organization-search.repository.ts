import type { AcceptanceFilter } from '../domain/eligibility';
import type { Organization } from '../domain/organization';
import { MIN_SUBSTRING_QUERY_LENGTH } from '../domain/search';
import { acceptanceSql } from './acceptance.sql';
import { joinSql, sql, type Db, type Sql } from './db';
import { ORGANIZATION_COLUMNS, toOrganization, type OrganizationRow } from './organizations.repository';

/** Match quality, best first: exact name, name start, inside the name, similar words (misspellings). */
export type MatchTier = 0 | 1 | 2 | 3;

export interface SearchHit {
  organization: Organization;
  tier: MatchTier;
  /** Whether the filter accepts it: always true in 'only' mode. */
  accepted: boolean;
}

export interface NameSearch {
  /** The folded query (domain `fold`): only [a-z0-9 ], so it goes into LIKE patterns as it is. */
  query: string;
  filter: AcceptanceFilter;
  /** 'only': return accepted organizations only; 'flag': return all, each flagged accepted or not. */
  acceptance: 'only' | 'flag';
  country: string | null;
  limit: number;
}

/**
 * How close a query word must come to a word of the name for the similarity tier (pg_trgm word_similarity;
 * the default 0.6 misses one swapped pair of letters such as "stanfrod").
 */
const WORD_SIMILARITY_THRESHOLD = 0.5;

/**
 * Ranked name search, one query per tier while the page is not full, so that the common case stays cheap:
 *  - exact and prefix (tiers 0-1) in search_name order, which the C-collated btree on (search_name, id) gives
 *    with an early stop; the exact name sorts first, being the shortest string with its own prefix;
 *  - inside the name (tier 2, LIKE '%q%'), then similar words (tier 3, misspellings), both through the trigram
 *    index, which needs 3 characters: 1-2 character queries match name starts only. Tier 2 is ordered by
 *    where the text starts in the name, tier 3 by closer similarity; then the shorter name, then the id.
 */
export async function searchByName(db: Db, search: NameSearch): Promise<SearchHit[]> {
  // A query without a letter or digit names nothing (and as a LIKE prefix it would match everything).
  if (search.query === '') return [];
  const { query: q } = search;
  const hits = await run(db, search, {
    tier: sql('case when search_name = ? then 0 else 1 end', q),
    match: sql('search_name like ?', `${q}%`),
    order: 'search_name, id',
    limit: search.limit,
  });
  if (hits.length >= search.limit || q.length < MIN_SUBSTRING_QUERY_LENGTH) return hits;
  // Inside the name: where the text starts, then the shorter name. Cheap on purpose: a common word matches
  // thousands of names, and similarity() would build the trigrams of every one of them to rank them.
  const byPosition = sql('strpos(search_name, ?), length(search_name), id', q);
  hits.push(
    ...(await run(db, search, {
      tier: sql('2'),
      match: sql('search_name like ? and search_name not like ?', `%${q}%`, `${q}%`),
      order: byPosition,
      limit: search.limit - hits.length,
    })),
  );
  const similar = similarWords(q);
  if (hits.length >= search.limit || !similar) return hits;
  const remaining = search.limit - hits.length;
  const fuzzy = await inTransaction(db, async (trx) => {
    // Local to this transaction: the threshold never stays on a pooled session.
    await trx.raw(`select set_config('pg_trgm.word_similarity_threshold', ?, true)`, [
      String(WORD_SIMILARITY_THRESHOLD),
    ]);
    return run(trx, search, {
      tier: sql('3'),
      match: joinSql([similar, sql('search_name not like ?', `%${q}%`)], ' and '),
      order: sql('similarity(search_name, ?) desc, length(name), id', q),
      limit: remaining,
    });
  });
  return [...hits, ...fuzzy];
}

/**
 * Every query word of 3+ characters must be close to some word of the name ("harvrd univrsity" finds
 * Harvard University). Requiring each word, not the whole string (pg_trgm %), keeps "stanford university"
 * from matching every other "... university" by the shared word alone. Undefined when no word is long
 * enough to compare.
 */
function similarWords(q: string): Sql | undefined {
  const words = [...new Set(q.split(' ').filter((w) => w.length >= MIN_SUBSTRING_QUERY_LENGTH))];
  if (words.length === 0) return undefined;
  const parts = words.map((w) => sql('? <% search_name', w));
  const all = joinSql(parts, ' and ');
  return sql(`(${all.text})`, ...all.bindings);
}

interface TierQuery {
  tier: Sql;
  match: Sql;
  order: string | Sql;
  limit: number;
}

async function run(db: Db, search: NameSearch, q: TierQuery): Promise<SearchHit[]> {
  const acceptance = acceptanceSql(search.filter);
  const where = [q.match];
  if (search.country !== null) where.push(sql('country = ?', search.country));
  if (search.acceptance === 'only') where.push(acceptance);
  const accepted = search.acceptance === 'flag' ? acceptance : sql('true');
  const condition = joinSql(where, ' and ');
  const order = typeof q.order === 'string' ? sql(q.order) : q.order;
  const query = sql(
    `select ${ORGANIZATION_COLUMNS}, ${q.tier.text} as tier, ${accepted.text} as accepted
       from organizations
      where ${condition.text}
      order by ${order.text}
      limit ?`,
    ...q.tier.bindings,
    ...accepted.bindings,
    ...condition.bindings,
    ...order.bindings,
    q.limit,
  );
  const result = await db.raw<{ rows: (OrganizationRow & { tier: number; accepted: boolean })[] }>(
    query.text,
    query.bindings,
  );
  return result.rows.map((row) => ({
    organization: toOrganization(row),
    tier: row.tier as MatchTier,
    accepted: row.accepted,
  }));
}

export interface DomainSearch {
  /** Host names to look for, the typed one first (domain `domainCandidates`). */
  candidates: readonly string[];
  country: string;
  filter: AcceptanceFilter;
  limit: number;
}

/** Organizations of a country listing any candidate domain: the exact host first, then by name. */
export async function searchByDomain(db: Db, search: DomainSearch): Promise<SearchHit[]> {
  const acceptance = acceptanceSql(search.filter);
  const result = await db.raw<{ rows: (OrganizationRow & { exact: boolean; accepted: boolean })[] }>(
    `select ${ORGANIZATION_COLUMNS}, (? = any(domains)) as exact, ${acceptance.text} as accepted
       from organizations
      where domains && ?::text[] and country = ?
      order by exact desc, search_name, id
      limit ?`,
    [search.candidates[0]!, ...acceptance.bindings, [...search.candidates], search.country, search.limit],
  );
  return result.rows.map((row) => ({
    organization: toOrganization(row),
    tier: row.exact ? 0 : 1,
    accepted: row.accepted,
  }));
}

async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return 'isTransaction' in db && db.isTransaction ? work(db) : db.transaction(work);
}
