import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Staff passwords (docs/operations.md, "Staff identities"): scrypt from node:crypto (no native dependency),
 * stored as `scrypt$N$r$p$salt$hash` (salt and hash in base64url) so that the parameters can be raised later
 * without breaking the hashes already stored, and compared in constant time. N = 2^15, r = 8, p = 1 costs
 * 32 MiB and about 0.1 s a hash; it runs on libuv's thread pool, not on the event loop.
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
export type ScryptParameters = { N: number; r: number; p: number };

/** Passwords shorter than this are refused (every password Eligo sets is generated, 24 characters). */
export const MIN_PASSWORD_LENGTH = 12;
/** What a sign-in may send: longer is refused before any hashing (scrypt takes any length, we do not). */
export const MAX_PASSWORD_LENGTH = 1024;
/** Characters of a generated password: 18 random bytes in base64url. */
export const GENERATED_PASSWORD_LENGTH = 24;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PREFIX = 'scrypt';
/** Bounds on parameters read back from a stored hash: a damaged row must not make a sign-in take minutes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // scrypt needs 128 * N * r bytes; node's default ceiling (32 MiB) is exactly that for N = 2^15, r = 8.
    maxmem: 256 * params.N * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** The stored form of a password: `scrypt$N$r$p$salt$hash`. Refuses one shorter than MIN_PASSWORD_LENGTH. */
export async function hashPassword(
  password: string,
  params: ScryptParameters = SCRYPT_PARAMETERS,
): Promise<string> {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    throw new Error(`a password has at least ${MIN_PASSWORD_LENGTH} characters`);
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params);
  return [PREFIX, params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join(
    '$',
  );
}

interface ParsedHash {
  params: ScryptParameters;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return undefined;
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^\d{1,8}$/.test(v!) ? Number(v) : NaN)) as [
    number,
    number,
    number,
  ];
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const hash = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < 8 || hash.length !== KEY_BYTES) return undefined;
  return { params: { N, r, p }, salt, hash };
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. A stored value that is not
 * a hash of ours is false (after the same work as a real check, so that it cannot be told apart by timing).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  const { params, salt, hash } = parsed ?? {
    params: SCRYPT_PARAMETERS,
    salt: Buffer.alloc(SALT_BYTES),
    hash: Buffer.alloc(KEY_BYTES),
  };
  const candidate = await derive(password, salt, params);
  return timingSafeEqual(candidate, hash) && parsed !== undefined;
}

/** A new password: 24 characters of base64url from 18 CSPRNG bytes (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * A hash of a random password nobody knows: a sign-in with an unknown email is checked against it, so that
 * it takes as long as one with a known email and a wrong password (no account enumeration by timing).
 */
export function dummyPasswordHash(params: ScryptParameters = SCRYPT_PARAMETERS): Promise<string> {
  return hashPassword(generatePassword(), params);
}
