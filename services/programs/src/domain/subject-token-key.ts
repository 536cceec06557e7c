import { KeyObject, type webcrypto } from 'node:crypto';
import { importJWK, importSPKI, type JWK, type KeyLike } from 'jose';

/** 8 KiB: a 4096-bit RSA key is under 1 KiB as a JWK or PEM; the cap only keeps stored snapshots small. */
export const MAX_SUBJECT_TOKEN_KEY_BYTES = 8192;

/** The JWS algorithms a subject token may be signed with: the key must suit at least one of them. */
export const SUBJECT_TOKEN_ALGORITHMS = ['ES256', 'RS256', 'EdDSA'] as const;
export type SubjectTokenAlgorithm = (typeof SUBJECT_TOKEN_ALGORITHMS)[number];

const ALGORITHM_LIST = SUBJECT_TOKEN_ALGORITHMS.join(', ');
const KEY_SHAPES = 'a JWK (JSON with "kty") or a PEM public key (-----BEGIN PUBLIC KEY-----)';
const KEY_KINDS = 'ES256 (EC P-256), RS256 (RSA of 2048 bits or more) or EdDSA (Ed25519 or Ed448)';
/** JWK members only a private or secret key has (RFC 7518 section 6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const PEM_PUBLIC_KEY = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----$/;
const PEM_PRIVATE_KEY = /^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;

/**
 * The public key of Program.subject_token_key, as given (already trimmed): a JWK as JSON or a PEM SPKI public
 * key that jose imports for one of SUBJECT_TOKEN_ALGORITHMS. The verifier of subject tokens imports it the
 * same way, so what is accepted here is what it can use. Private and secret keys are refused: the setting is
 * shown in program snapshots (events, admin API) in clear. Returns the problem, or undefined when it is fine.
 */
export async function subjectTokenKeyProblem(value: string): Promise<string | undefined> {
  if (Buffer.byteLength(value, 'utf8') > MAX_SUBJECT_TOKEN_KEY_BYTES)
    return `must be at most ${MAX_SUBJECT_TOKEN_KEY_BYTES} bytes`;
  if (value.startsWith('{')) return jwkProblem(value);
  if (value.startsWith('-----BEGIN')) return pemProblem(value);
  return `must be ${KEY_SHAPES}`;
}

async function jwkProblem(json: string): Promise<string | undefined> {
  let jwk: unknown;
  try {
    jwk = JSON.parse(json);
  } catch {
    return `must be ${KEY_SHAPES}; this is not valid JSON`;
  }
  if (!isJwk(jwk)) return `must be ${KEY_SHAPES}; this JSON has no "kty"`;
  const secret = PRIVATE_MEMBERS.find((member) => Object.hasOwn(jwk, member));
  if (secret !== undefined)
    return `must be a public key; this JWK has the private or secret member "${secret}"`;
  if (jwk.alg !== undefined && !isAlgorithm(jwk.alg))
    return `"alg" of the JWK must be one of ${ALGORITHM_LIST} (or left out)`;
  // A JWK that names its algorithm is used with that one only.
  const candidates = jwk.alg !== undefined ? [jwk.alg as SubjectTokenAlgorithm] : SUBJECT_TOKEN_ALGORITHMS;
  for (const alg of candidates) {
    if (suits(await imported(() => importJWK(jwk, alg)), alg)) return undefined;
  }
  return `must be a public key for ${jwk.alg ?? KEY_KINDS}`;
}

async function pemProblem(pem: string): Promise<string | undefined> {
  if (PEM_PRIVATE_KEY.test(pem)) return 'must be a public key, not a private one';
  if (!PEM_PUBLIC_KEY.test(pem)) return `must be ${KEY_SHAPES}`;
  for (const alg of SUBJECT_TOKEN_ALGORITHMS) {
    if (suits(await imported(() => importSPKI(pem, alg)), alg)) return undefined;
  }
  return `must be a public key for ${KEY_KINDS}`;
}

function isJwk(value: unknown): value is JWK & { kty: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { kty?: unknown }).kty === 'string'
  );
}

function isAlgorithm(value: unknown): value is SubjectTokenAlgorithm {
  return (SUBJECT_TOKEN_ALGORITHMS as readonly unknown[]).includes(value);
}

/** The imported key, or undefined when jose cannot import it (malformed, unsupported type or curve). */
async function imported(
  load: () => Promise<KeyLike | Uint8Array>,
): Promise<KeyLike | Uint8Array | undefined> {
  try {
    return await load();
  } catch {
    return undefined;
  }
}

/**
 * Whether the key verifies signatures of `alg`. jose checks this only when a token is verified; checking it
 * now refuses, say, a P-384 key or a 1024-bit RSA key when it is set rather than at every token later.
 */
function suits(key: KeyLike | Uint8Array | undefined, alg: SubjectTokenAlgorithm): boolean {
  if (key === undefined || key instanceof Uint8Array) return false;
  const object = key instanceof KeyObject ? key : KeyObject.from(key as webcrypto.CryptoKey);
  if (object.type !== 'public') return false;
  const details = object.asymmetricKeyDetails;
  switch (alg) {
    case 'ES256':
      return object.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1';
    case 'RS256':
      return object.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048;
    case 'EdDSA':
      return object.asymmetricKeyType === 'ed25519' || object.asymmetricKeyType === 'ed448';
  }
}
