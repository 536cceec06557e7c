import { generateKeyPairSync, type KeyObject } from 'node:crypto';

/** Key pairs for subject_token_key tests, exported the ways a program owner pastes them. */
export interface TestKey {
  /** The public key as a JWK (JSON). */
  publicJwk: string;
  /** The public key as PEM SPKI. */
  publicPem: string;
  /** The whole key pair as a JWK (with "d"): what must be refused. */
  privateJwk: string;
  /** The private key as PEM PKCS#8. */
  privatePem: string;
}

function exported(pair: { publicKey: KeyObject; privateKey: KeyObject }): TestKey {
  return {
    publicJwk: JSON.stringify(pair.publicKey.export({ format: 'jwk' })),
    publicPem: pair.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privateJwk: JSON.stringify(pair.privateKey.export({ format: 'jwk' })),
    privatePem: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

export const ecP256 = (): TestKey => exported(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
export const ecP384 = (): TestKey => exported(generateKeyPairSync('ec', { namedCurve: 'P-384' }));
export const rsa = (modulusLength = 2048): TestKey => exported(generateKeyPairSync('rsa', { modulusLength }));
export const ed25519 = (): TestKey => exported(generateKeyPairSync('ed25519'));
export const x25519 = (): TestKey => exported(generateKeyPairSync('x25519'));
