import type { Organization, OrganizationDraft, OrganizationType } from '../domain/organization';
import type { Db } from './db';

/** The columns every read selects (search_name stays inside the database). */
export const ORGANIZATION_COLUMNS = 'id, external_key, name, type, country, domains, city, state, login_url';

export interface OrganizationRow {
  id: string; // bigint: pg returns it as text
  external_key: string;
  name: string;
  type: string;
  country: string;
  domains: string[];
  city: string | null;
  state: string | null;
  login_url: string | null;
}

export function toOrganization(row: OrganizationRow): Organization {
  return {
    id: Number(row.id),
    externalKey: row.external_key,
    name: row.name,
    type: row.type as OrganizationType,
    country: row.country,
    domains: row.domains,
    city: row.city ?? '',
    state: row.state ?? '',
    loginUrl: row.login_url ?? '',
  };
}

export async function findOrganization(db: Db, id: number): Promise<Organization | undefined> {
  const result = await db.raw<{ rows: OrganizationRow[] }>(
    `select ${ORGANIZATION_COLUMNS} from organizations where id = ?`,
    [id],
  );
  const row = result.rows[0];
  return row && toOrganization(row);
}

/** Organizations whose folded name is exactly `searchName` (at most `limit`, to tell one from several). */
export async function findByFoldedName(db: Db, searchName: string, limit: number): Promise<Organization[]> {
  const result = await db.raw<{ rows: OrganizationRow[] }>(
    `select ${ORGANIZATION_COLUMNS} from organizations where search_name = ? order by id limit ?`,
    [searchName, limit],
  );
  return result.rows.map(toOrganization);
}

/** Rows as jsonb_to_recordset reads them: one bound parameter for a whole batch. */
function recordset(drafts: readonly OrganizationDraft[]): string {
  return JSON.stringify(
    drafts.map((d) => ({
      external_key: d.externalKey,
      name: d.name,
      search_name: d.searchName,
      type: d.type,
      country: d.country,
      domains: d.domains,
      city: d.city === '' ? null : d.city,
      state: d.state === '' ? null : d.state,
      login_url: d.loginUrl === '' ? null : d.loginUrl,
    })),
  );
}

/**
 * The seed's columns: 002_seed_catalog writes through insertSeedBatch before 003 adds login_url, so the seed
 * must never name it (seed rows have none anyway; jsonb_to_recordset ignores the key).
 */
const SEED_RECORDSET_COLUMNS =
  'external_key text, name text, search_name text, type text, country text, domains text[], city text, state text';
const RECORDSET_COLUMNS = `${SEED_RECORDSET_COLUMNS}, login_url text`;

export async function insertOrganization(db: Db, draft: OrganizationDraft): Promise<Organization> {
  const result = await db.raw<{ rows: OrganizationRow[] }>(
    `insert into organizations (external_key, name, search_name, type, country, domains, city, state, login_url)
     select * from jsonb_to_recordset(?::jsonb) as r(${RECORDSET_COLUMNS})
     returning ${ORGANIZATION_COLUMNS}`,
    [recordset([draft])],
  );
  return toOrganization(result.rows[0]!);
}

export interface UpsertedOrganization {
  organization: Organization;
  /** true: a new row; false: an existing row that changed. Unchanged rows are not returned. */
  inserted: boolean;
}

/**
 * Inserts or updates a batch by external key in one statement. A row whose fields are all equal to the stored
 * ones is not touched (no new row version, no updated_at, no event), which makes re-importing a file a no-op.
 * The keys must be distinct: Postgres refuses ON CONFLICT DO UPDATE touching one row twice.
 */
export async function upsertOrganizations(
  db: Db,
  drafts: readonly OrganizationDraft[],
): Promise<UpsertedOrganization[]> {
  if (drafts.length === 0) return [];
  const result = await db.raw<{ rows: (OrganizationRow & { inserted: boolean })[] }>(
    `insert into organizations as o
            (external_key, name, search_name, type, country, domains, city, state, login_url)
     select * from jsonb_to_recordset(?::jsonb) as r(${RECORDSET_COLUMNS})
     on conflict (external_key) do update
        set name = excluded.name, search_name = excluded.search_name, type = excluded.type,
            country = excluded.country, domains = excluded.domains, city = excluded.city,
            state = excluded.state, login_url = excluded.login_url, updated_at = now()
      where (o.name, o.type, o.country, o.domains, o.city, o.state, o.login_url)
            is distinct from
            (excluded.name, excluded.type, excluded.country, excluded.domains, excluded.city, excluded.state,
             excluded.login_url)
     returning ${ORGANIZATION_COLUMNS}, (xmax = 0) as inserted`,
    [recordset(drafts)],
  );
  return result.rows.map((row) => ({ organization: toOrganization(row), inserted: row.inserted }));
}

/** Bootstrap load (the seed): new keys only, no events. Returns the number of rows inserted. */
export async function insertSeedBatch(db: Db, drafts: readonly OrganizationDraft[]): Promise<number> {
  if (drafts.length === 0) return 0;
  const result = await db.raw<{ rowCount: number }>(
    `insert into organizations (external_key, name, search_name, type, country, domains, city, state)
     select * from jsonb_to_recordset(?::jsonb) as r(${SEED_RECORDSET_COLUMNS})
     on conflict (external_key) do nothing`,
    [recordset(drafts)],
  );
  return result.rowCount;
}
