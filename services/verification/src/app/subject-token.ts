import { invalidArgument } from '@eligo/runtime';
import { compactVerify, importJWK, importSPKI, type KeyLike } from 'jose';
import type { Program } from './ports';

/** Algorithms a program's subject token key may sign with (asymmetric only: the key is public). */
const ALGORITHMS = ['ES256', 'RS256', 'EdDSA'] as const;

const refused = (why: string) =>
  invalidArgument(`The subject token was refused: ${why}`, { errorIds: ['invalidRequest'], body: 'ER' });

/**
 * The subject a compact JWS carries (DriverLicense as application/jose, the marketplace token), verified with
 * the program's subject token key. Anything else — no key, a bad signature, a payload that is not a JSON
 * object — is refused with invalidRequest.
 */
export async function subjectFromToken(program: Program, token: string): Promise<Record<string, unknown>> {
  if (!program.subjectTokenKey) throw refused('the program accepts no subject tokens');
  let payload: Uint8Array | undefined;
  for (const alg of ALGORITHMS) {
    const key = await importKey(program.subjectTokenKey, alg);
    if (!key) continue;
    try {
      ({ payload } = await compactVerify(token, key, { algorithms: [alg] }));
      break;
    } catch {
      // Another algorithm may fit the key; the token is refused below when none does.
    }
  }
  if (!payload) throw refused('the signature does not verify with the program key');
  let subject: unknown;
  try {
    subject = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    throw refused('the payload is not JSON');
  }
  if (typeof subject !== 'object' || subject === null || Array.isArray(subject))
    throw refused('the payload is not a JSON object');
  return subject as Record<string, unknown>;
}

async function importKey(text: string, alg: string): Promise<KeyLike | Uint8Array | undefined> {
  try {
    return text.trim().startsWith('{') ? await importJWK(JSON.parse(text), alg) : await importSPKI(text, alg);
  } catch {
    return undefined;
  }
}
