import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { TOKEN_ROLES, type TokenRole } from '../domain/tokens';

/**
 * OAuth access tokens are HS256 JWTs signed with a key derived from the master key: verifying one needs no
 * storage, and the only lookup Authenticate still makes is whether the token it was issued from is revoked.
 */
const ISSUER = 'eligo';
const AUDIENCE = 'eligo-rest';
const ALGORITHM = 'HS256';

export interface AccessTokenClaims {
  tokenId: string;
  accountId: string;
  roles: TokenRole[];
  expiresAt: Date;
}

export async function signAccessToken(
  key: Uint8Array,
  grant: { tokenId: string; accountId: string; roles: TokenRole[] },
  ttlSeconds: number,
  now: Date = new Date(),
): Promise<{ jwt: string; expiresAt: Date }> {
  // JWT times are whole seconds and jose treats exp as "expired from that second on": rounding the issue time
  // up keeps the lifetime at least ttlSeconds (and under ttlSeconds + 1).
  const iat = Math.ceil(now.getTime() / 1000);
  const exp = iat + ttlSeconds;
  const jwt = await new SignJWT({ acc: grant.accountId, roles: grant.roles })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(grant.tokenId)
    .setJti(randomBytes(16).toString('base64url'))
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key);
  return { jwt, expiresAt: new Date(exp * 1000) };
}

/** The claims of a valid, unexpired token; undefined for anything else (bad signature, expired, malformed). */
export async function verifyAccessToken(
  key: Uint8Array,
  jwt: string,
): Promise<AccessTokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    const { sub, acc, roles, exp } = payload;
    if (typeof sub !== 'string' || typeof acc !== 'string' || typeof exp !== 'number') return undefined;
    if (!Array.isArray(roles) || !roles.every((r) => (TOKEN_ROLES as readonly unknown[]).includes(r)))
      return undefined;
    return { tokenId: sub, accountId: acc, roles: roles as TokenRole[], expiresAt: new Date(exp * 1000) };
  } catch {
    return undefined;
  }
}
