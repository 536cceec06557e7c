import { invalidArgument, type Transaction } from '@eligo/runtime';
import { errors, importJWK, importSPKI, jwtVerify, type JWTPayload, type KeyLike } from 'jose';
import type { AppContext } from './context';
import type { Program } from '../domain/program';
import { recordUse, usedByAnother, type SubjectTokenUse } from './used-subject-tokens';

/** Algorithms a program's subject token key may sign with (asymmetric only: the key is public). */
const ALGORITHMS = ['ES256', 'RS256', 'EdDSA'];

/** The clocks of the partner that signs and ours may differ this much (exp, nbf, iat). */
export const CLOCK_SKEW_SECONDS = 60;
/**
 * A token hands one subject over for one submission, so it lives at most this long: from iat (required, not
 * in the future) to exp. With the skew, a token is accepted at most 16 minutes after it was issued, and its
 * jti needs keeping no longer.
 */
export const MAX_LIFETIME_SECONDS = 15 * 60;
/** The registered claims of a token: checked here, so removed from the subject it carries. */
const CLAIMS = ['exp', 'iat', 'nbf', 'aud', 'jti', 'iss'];
/** A jti (unique per program while the token lives): 1 to 128 visible ASCII characters. */
const JTI = /^[\x21-\x7e]{1,128}$/;

const refused = (why: string) =>
  invalidArgument(`The subject token was refused: ${why}`, { errorIds: ['invalidRequest'] });

interface Verified {
  subject: Record<string, unknown>;
  use: SubjectTokenUse;
}

/**
 * The subject of a token a submission is about to take, before it stores anything (the program path shape
 * checks it before it starts a verification): refused when another request already used the token. Its own
 * retry (same request id) passes, to be answered what the first call was.
 */
export async function checkSubjectToken(
  ctx: Pick<AppContext, 'db' | 'now'>,
  program: Program,
  token: string,
  requestId?: string,
): Promise<Record<string, unknown>> {
  const { subject, use } = await verify(program, token, ctx.now());
  if (await usedByAnother(ctx.db, { ...use, requestId })) throw alreadyUsed();
  return subject;
}

/**
 * The subject of a token a submission takes, the token used up in the submission's transaction: once that
 * commits (whatever the outcome), the jti is refused for the program until the token expires. A submission
 * refused with nothing stored rolls the use back.
 */
export async function useSubjectToken(
  trx: Transaction,
  ctx: Pick<AppContext, 'now'>,
  program: Program,
  token: string,
  requestId?: string,
): Promise<Record<string, unknown>> {
  const now = ctx.now();
  const { subject, use } = await verify(program, token, now);
  if (!(await recordUse(trx, { ...use, requestId }, now))) throw alreadyUsed();
  return subject;
}

const alreadyUsed = () => refused('the token was already used (its jti is single-use)');

/**
 * The subject a compact JWS carries (DriverLicense as application/jose, the marketplace token), verified with
 * the program's subject token key, its claims checked: exp, iat (at most MAX_LIFETIME_SECONDS apart), aud
 * (the program id), jti, and nbf when present. Anything else — no key, a bad signature, a payload that is not
 * a JSON object, a claim missing or wrong — is refused with invalidRequest.
 */
async function verify(program: Program, token: string, now: Date): Promise<Verified> {
  const keyText = program.subjectTokenKey;
  if (!keyText) throw refused('the program accepts no subject tokens');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, ({ alg }) => keyFor(keyText, alg), {
      algorithms: ALGORITHMS,
      audience: program.programId,
      requiredClaims: ['exp', 'jti'],
      // Requires iat and refuses one in the future; the lifetime itself is exp - iat, below.
      maxTokenAge: MAX_LIFETIME_SECONDS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: now,
    }));
  } catch (err) {
    throw refused(whyRefused(err));
  }
  // jwtVerify has checked that both are numbers.
  const exp = payload.exp!;
  if (exp - payload.iat! > MAX_LIFETIME_SECONDS)
    throw refused(`it lives longer than ${MAX_LIFETIME_SECONDS / 60} minutes (from "iat" to "exp")`);
  const { jti } = payload;
  if (typeof jti !== 'string' || !JTI.test(jti))
    throw refused('its "jti" claim must be 1 to 128 visible ASCII characters');
  const subject: Record<string, unknown> = { ...payload };
  for (const claim of CLAIMS) delete subject[claim];
  // Accepted until exp plus the skew: the use is kept as long.
  const expiresAt = new Date((exp + CLOCK_SKEW_SECONDS) * 1000);
  return { subject, use: { programId: program.programId, jti, expiresAt } };
}

function whyRefused(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'it has expired';
  if (err instanceof errors.JWTClaimValidationFailed)
    return err.claim === 'aud' && err.reason === 'check_failed'
      ? 'its "aud" claim is not the program id'
      : err.message;
  if (err instanceof errors.JWTInvalid) return 'the payload is not a JSON object';
  // A bad signature, an algorithm not taken or a key that does not fit it: all the same to the caller.
  return 'the signature does not verify with the program key';
}

/** The program key for the token's algorithm; one that does not fit it throws (a signature refusal). */
const keyFor = (text: string, alg: string): Promise<KeyLike | Uint8Array> =>
  text.trim().startsWith('{') ? importJWK(JSON.parse(text), alg) : importSPKI(text, alg);
