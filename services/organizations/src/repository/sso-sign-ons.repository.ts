import type { Db } from './db';

/** A sign-on in progress (sso_sign_ons), found by the keyed HMAC of its state; its secrets still encrypted. */
export interface SignOnRecord {
  stateHash: Buffer;
  verificationId: string;
  organizationId: number;
  nonceEncrypted: Buffer;
  codeVerifierEncrypted: Buffer;
  redirectUri: string;
  expiresAt: Date;
}

interface Row {
  state_hash: Buffer;
  verification_id: string;
  organization_id: string; // bigint: pg returns it as text
  nonce_encrypted: Buffer;
  code_verifier_encrypted: Buffer;
  redirect_uri: string;
  expires_at: Date;
  lapsed: boolean;
}

/** Stores a new sign-on, lapsing `lifetimeMs` after now by the database's clock (the one the cleanup reads). */
export async function insertSignOn(
  db: Db,
  signOn: Omit<SignOnRecord, 'expiresAt'>,
  lifetimeMs: number,
): Promise<Date> {
  const result = await db.raw<{ rows: { expires_at: Date }[] }>(
    `insert into sso_sign_ons
       (state_hash, verification_id, organization_id, nonce_encrypted, code_verifier_encrypted, redirect_uri,
        expires_at)
     values (?, ?, ?, ?, ?, ?, now() + ? * interval '1 millisecond')
     returning expires_at`,
    [
      signOn.stateHash,
      signOn.verificationId,
      signOn.organizationId,
      signOn.nonceEncrypted,
      signOn.codeVerifierEncrypted,
      signOn.redirectUri,
      lifetimeMs,
    ],
  );
  return result.rows[0]!.expires_at;
}

/**
 * Takes the sign-on out (single use: of two finishes of one state, only one gets it), with whether it had
 * lapsed by the database's clock.
 */
export async function takeSignOn(
  db: Db,
  stateHash: Buffer,
): Promise<{ signOn: SignOnRecord; lapsed: boolean } | undefined> {
  const result = await db.raw<{ rows: Row[] }>(
    'delete from sso_sign_ons where state_hash = ? returning *, expires_at <= now() as lapsed',
    [stateHash],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    signOn: {
      stateHash: row.state_hash,
      verificationId: row.verification_id,
      organizationId: Number(row.organization_id),
      nonceEncrypted: row.nonce_encrypted,
      codeVerifierEncrypted: row.code_verifier_encrypted,
      redirectUri: row.redirect_uri,
      expiresAt: row.expires_at,
    },
    lapsed: row.lapsed,
  };
}

/** Keeps only the newest `keep` sign-ons of a verification (a person restarting it again and again). */
export async function trimSignOns(db: Db, verificationId: string, keep: number): Promise<void> {
  await db.raw(
    `delete from sso_sign_ons where state_hash in (
       select state_hash from sso_sign_ons where verification_id = ?
        order by created_at desc offset ?)`,
    [verificationId, keep],
  );
}

/** Deletes up to `limit` sign-ons that lapsed more than `graceMs` ago, oldest first; answers how many. */
export async function deleteLapsedSignOns(db: Db, graceMs: number, limit: number): Promise<number> {
  const result = await db.raw<{ rowCount: number | null }>(
    `delete from sso_sign_ons where state_hash in (
       select state_hash from sso_sign_ons where expires_at < now() - ? * interval '1 millisecond'
        order by expires_at limit ? for update skip locked)`,
    [graceMs, limit],
  );
  return result.rowCount ?? 0;
}
