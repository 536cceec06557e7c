import type { SsoRule } from '../domain/sso-rule';
import type { Db } from './db';

/** An organization's OpenID Connect client as stored (organization_sso); the secret still encrypted. */
export interface OrganizationSsoRecord {
  organizationId: number;
  issuer: string;
  clientId: string;
  /** null: a public client. */
  clientSecretEncrypted: Buffer | null;
  scopes: string[];
  rule: SsoRule;
  updatedAt: Date;
}

interface Row {
  organization_id: string; // bigint: pg returns it as text
  issuer: string;
  client_id: string;
  client_secret_encrypted: Buffer | null;
  scopes: string[];
  rule: SsoRule;
  updated_at: Date;
}

const COLUMNS = 'organization_id, issuer, client_id, client_secret_encrypted, scopes, rule, updated_at';

function toRecord(row: Row): OrganizationSsoRecord {
  return {
    organizationId: Number(row.organization_id),
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretEncrypted: row.client_secret_encrypted,
    scopes: row.scopes,
    rule: {
      claims: row.rule.claims ?? [],
      emailDomainInOrganization: row.rule.emailDomainInOrganization === true,
    },
    updatedAt: row.updated_at,
  };
}

export async function findOrganizationSso(
  db: Db,
  organizationId: number,
): Promise<OrganizationSsoRecord | undefined> {
  const result = await db.raw<{ rows: Row[] }>(
    `select ${COLUMNS} from organization_sso where organization_id = ?`,
    [organizationId],
  );
  const row = result.rows[0];
  return row && toRecord(row);
}

/**
 * Creates or replaces the organization's client. A null secret keeps the stored one (none for a new client):
 * the secret is write-only, so that a change of scopes or rule need not carry it again.
 */
export async function upsertOrganizationSso(
  db: Db,
  sso: Omit<OrganizationSsoRecord, 'updatedAt'>,
): Promise<OrganizationSsoRecord> {
  const result = await db.raw<{ rows: Row[] }>(
    `insert into organization_sso (organization_id, issuer, client_id, client_secret_encrypted, scopes, rule)
     values (?, ?, ?, ?, ?::text[], ?::jsonb)
     on conflict (organization_id) do update set
       issuer = excluded.issuer,
       client_id = excluded.client_id,
       client_secret_encrypted =
         coalesce(excluded.client_secret_encrypted, organization_sso.client_secret_encrypted),
       scopes = excluded.scopes,
       rule = excluded.rule,
       updated_at = now()
     returning ${COLUMNS}`,
    [
      sso.organizationId,
      sso.issuer,
      sso.clientId,
      sso.clientSecretEncrypted,
      sso.scopes,
      JSON.stringify(sso.rule),
    ],
  );
  return toRecord(result.rows[0]!);
}

/** false when the organization had none. Its sign-ons in progress go with it (foreign key cascade). */
export async function deleteOrganizationSso(db: Db, organizationId: number): Promise<boolean> {
  const count = await db('organization_sso').where({ organization_id: organizationId }).delete();
  return count > 0;
}
