import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ID_HEX, newId } from './ids';

/**
 * Formats of the credentials an access token comes with. Prefixes make a leaked credential recognisable
 * (secret scanners, log review) and tell the kinds apart; the random part is 256 bits. Only SHA-256 hashes of
 * the token and the client secret are stored: a database dump grants nothing.
 */
export const STATIC_TOKEN_PREFIX = 'eligo_';
export const CLIENT_ID_PREFIX = 'eligo_client_';
export const CLIENT_SECRET_PREFIX = 'eligo_secret_';

const RANDOM_43 = '[A-Za-z0-9_-]{43}'; // base64url of 32 bytes, unpadded
const STATIC_TOKEN = new RegExp(`^${STATIC_TOKEN_PREFIX}${RANDOM_43}$`);
const CLIENT_ID = new RegExp(`^${CLIENT_ID_PREFIX}${ID_HEX}$`);
const CLIENT_SECRET = new RegExp(`^${CLIENT_SECRET_PREFIX}${RANDOM_43}$`);
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export const TOKEN_ROLES = ['REPORTER', 'PII', 'BULK_VERIFIER'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];
export const MAX_TOKEN_NAME = 100;

/** An access token as it may be shown after its creation: no credential, neither in clear nor hashed. */
export interface TokenSummary {
  id: string;
  accountId: string;
  name: string;
  roles: TokenRole[];
  createdAt: Date;
  revokedAt: Date | null;
}

export interface IssuedCredentials {
  tokenId: string;
  token: string;
  tokenHash: Buffer;
  clientId: string;
  clientSecret: string;
  clientSecretHash: Buffer;
}

export function issueCredentials(): IssuedCredentials {
  const token = STATIC_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const clientSecret = CLIENT_SECRET_PREFIX + randomBytes(32).toString('base64url');
  return {
    tokenId: newId(),
    token,
    tokenHash: sha256(token),
    clientId: CLIENT_ID_PREFIX + newId(),
    clientSecret,
    clientSecretHash: sha256(clientSecret),
  };
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function isStaticTokenFormat(value: string): boolean {
  return STATIC_TOKEN.test(value);
}

export function isClientIdFormat(value: string): boolean {
  return CLIENT_ID.test(value);
}

export function isClientSecretFormat(value: string): boolean {
  return CLIENT_SECRET.test(value);
}

/** Three base64url segments: worth a signature check; anything else is refused without one. */
export function isJwtFormat(value: string): boolean {
  return value.length <= 4096 && JWT.test(value);
}

/** Constant-time comparison of a presented secret with a stored SHA-256 (equal lengths by construction). */
export function secretMatches(presented: string, storedHash: Buffer): boolean {
  const hash = sha256(presented);
  return storedHash.length === hash.length && timingSafeEqual(hash, storedHash);
}

/** Roles as stored and granted: unique, in a stable order. */
export function normaliseRoles(roles: readonly TokenRole[]): TokenRole[] {
  return TOKEN_ROLES.filter((role) => roles.includes(role));
}
