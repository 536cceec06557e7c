import { randomUUID } from 'node:crypto';
import { SignJWT, type KeyLike } from 'jose';

/** Seconds since the epoch (a JWT NumericDate). */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims a program's partner puts in a subject token: for `programId`, 5 minutes to live, a fresh jti. */
export const tokenClaims = (programId: string) => {
  const iat = nowSeconds();
  return { aud: programId, iat, exp: iat + 300, jti: randomUUID() };
};

/**
 * A subject token as a partner signs one: the subject's fields with valid claims for the program, which
 * `claims` overrides (an undefined claim is left out).
 */
export const signSubjectToken = (
  signer: { key: KeyLike; alg: string; programId: string },
  payload: object,
  claims: object = {},
): Promise<string> =>
  new SignJWT({ ...tokenClaims(signer.programId), ...payload, ...claims })
    .setProtectedHeader({ alg: signer.alg })
    .sign(signer.key);
