import type { TokenRole, TokenSummary } from '../domain/tokens';
import { keysetPage, type Db, type Keyset } from './db';

/** A token row without its hashes (PUBLIC_COLUMNS). */
export type TokenRecord = TokenSummary;

interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  roles: TokenRole[];
  created_at: Date;
  revoked_at: Date | null;
  client_secret_hash?: Buffer;
}

const PUBLIC_COLUMNS = ['id', 'account_id', 'name', 'roles', 'created_at', 'revoked_at'];

function toRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    roles: row.roles,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export interface NewToken {
  id: string;
  accountId: string;
  name: string;
  roles: TokenRole[];
  tokenHash: Buffer;
  clientId: string;
  clientSecretHash: Buffer;
}

export async function insertToken(db: Db, token: NewToken): Promise<TokenRecord> {
  const [row] = (await db
    .table('access_tokens')
    .insert({
      id: token.id,
      account_id: token.accountId,
      name: token.name,
      roles: token.roles,
      token_hash: token.tokenHash,
      client_id: token.clientId,
      client_secret_hash: token.clientSecretHash,
    })
    .returning(PUBLIC_COLUMNS)) as TokenRow[];
  return toRecord(row!);
}

/** The live token with this hash (unique index on token_hash). */
export async function findActiveTokenByHash(db: Db, tokenHash: Buffer): Promise<TokenRecord | undefined> {
  const row = (await db
    .table('access_tokens')
    .where({ token_hash: tokenHash })
    .whereNull('revoked_at')
    .first(PUBLIC_COLUMNS)) as TokenRow | undefined;
  return row && toRecord(row);
}

/** The live token an OAuth access token was issued from (primary key). */
export async function findActiveTokenById(db: Db, id: string): Promise<TokenRecord | undefined> {
  const row = (await db
    .table('access_tokens')
    .where({ id })
    .whereNull('revoked_at')
    .first(PUBLIC_COLUMNS)) as TokenRow | undefined;
  return row && toRecord(row);
}

/** The live token of an OAuth client, with its secret's hash (unique index on client_id). */
export async function findActiveClient(
  db: Db,
  clientId: string,
): Promise<(TokenRecord & { clientSecretHash: Buffer }) | undefined> {
  const row = (await db
    .table('access_tokens')
    .where({ client_id: clientId })
    .whereNull('revoked_at')
    .first([...PUBLIC_COLUMNS, 'client_secret_hash'])) as TokenRow | undefined;
  return row && { ...toRecord(row), clientSecretHash: row.client_secret_hash! };
}

/** Locks the token row so that two revocations of it serialise (only the first one emits the event). */
export async function lockToken(db: Db, id: string): Promise<TokenRecord | undefined> {
  const row = (await db.table('access_tokens').where({ id }).forUpdate().first(PUBLIC_COLUMNS)) as
    TokenRow | undefined;
  return row && toRecord(row);
}

export async function markTokenRevoked(db: Db, id: string): Promise<void> {
  await db.table('access_tokens').where({ id }).update({ revoked_at: db.fn.now() });
}

/** An account's tokens, revoked ones included, newest first (access_tokens_account_created_idx). */
export async function listTokens(
  db: Db,
  query: { accountId: string; after: Keyset | null; limit: number },
): Promise<TokenRecord[]> {
  const q = db.table('access_tokens').where({ account_id: query.accountId }).select(PUBLIC_COLUMNS);
  const rows = (await keysetPage(
    q,
    { createdAt: 'created_at', id: 'id' },
    query.after,
    query.limit,
  )) as TokenRow[];
  return rows.map(toRecord);
}
