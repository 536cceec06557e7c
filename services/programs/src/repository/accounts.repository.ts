import type { Knex } from '@eligo/runtime';
import type { AccountOverview } from '../domain/accounts';
import { containsPattern, keysetPage, type Db, type Keyset } from './db';

export interface AccountRecord {
  id: string;
  name: string;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  name: string;
  created_at: Date;
}

interface AccountOverviewRow extends AccountRow {
  token_count: string | number;
  program_count: string | number;
}

export async function insertAccount(db: Db, id: string, name: string): Promise<AccountRecord> {
  const [row] = (await db.table('accounts').insert({ id, name }).returning('*')) as AccountRow[];
  return { id: row!.id, name: row!.name, createdAt: row!.created_at };
}

export async function accountExists(db: Db, id: string): Promise<boolean> {
  const row = await db.table('accounts').where({ id }).first('id');
  return row !== undefined;
}

/** The counts read per account row: each walks the account's (account_id, created_at, id) index. */
function overviewQuery(db: Db): Knex.QueryBuilder {
  return db
    .table('accounts as a')
    .select(
      'a.id',
      'a.name',
      'a.created_at',
      db.raw(
        '(select count(*) from access_tokens t where t.account_id = a.id and t.revoked_at is null) as token_count',
      ),
      db.raw('(select count(*) from programs p where p.account_id = a.id) as program_count'),
    );
}

function toOverview(row: AccountOverviewRow): AccountOverview {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    tokenCount: Number(row.token_count),
    programCount: Number(row.program_count),
  };
}

export async function findAccountOverview(db: Db, id: string): Promise<AccountOverview | undefined> {
  const row = (await overviewQuery(db).where('a.id', id).first()) as AccountOverviewRow | undefined;
  return row && toOverview(row);
}

/** Newest first after `after` (accounts_created_idx), optionally only names containing `nameContains`. */
export async function listAccountOverviews(
  db: Db,
  query: { nameContains: string | null; after: Keyset | null; limit: number },
): Promise<AccountOverview[]> {
  const q = overviewQuery(db);
  if (query.nameContains !== null) void q.whereILike('a.name', containsPattern(query.nameContains));
  const rows = (await keysetPage(
    q,
    { createdAt: 'a.created_at', id: 'a.id' },
    query.after,
    query.limit,
  )) as AccountOverviewRow[];
  return rows.map(toOverview);
}
