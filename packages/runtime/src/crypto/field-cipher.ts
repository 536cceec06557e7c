import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { publicRandomBytes } from './public-random';

/**
 * Encryption of PII and secrets at rest (docs/architecture.md, "Data ownership"): AES-256-GCM with a random
 * 96-bit IV per value, and HMAC-SHA256 lookup hashes so that an encrypted column can still be found by
 * equality. Both keys are derived from the one master key (ELIGO_ENCRYPTION_KEY) with HKDF, one per purpose,
 * so that a service never uses the same key for two jobs.
 *
 * Stored layout: [format 1 byte][key id 4 bytes][iv 12 bytes][tag 16 bytes][ciphertext]. The key id (a hash of
 * the master key) makes a value encrypted under another key fail loudly instead of decrypting to garbage.
 */
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 4;
const HEADER = 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES;

export const MASTER_KEY_BYTES = 32;

/** A purpose-bound 32-byte key from the master key (HKDF-SHA256). */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  assertMasterKey(masterKey);
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `eligo:${purpose}`, 32));
}

/**
 * A short, non-secret fingerprint of the master key, stored beside encrypted data so that data encrypted
 * under another key fails loudly instead of decrypting to garbage.
 */
export function masterKeyId(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'key-id').subarray(0, KEY_ID_BYTES);
}

export interface FieldCipher {
  /** Encrypts a value; `context` (e.g. the row id) is bound as additional data, so a value moved to another
   * row does not decrypt. */
  encrypt(plaintext: string, context?: string): Buffer;
  decrypt(stored: Buffer, context?: string): string;
  /** Deterministic HMAC of a normalised value, for equality lookups on encrypted columns. */
  lookupHash(normalised: string): Buffer;
}

/** A cipher for one purpose (e.g. "programs.webhook-secret"); different purposes cannot read each other. */
export function createFieldCipher(masterKey: Buffer, purpose: string): FieldCipher {
  const key = deriveKey(masterKey, `${purpose}:enc`);
  const macKey = deriveKey(masterKey, `${purpose}:mac`);
  const keyId = masterKeyId(masterKey);
  return {
    encrypt(plaintext, context = '') {
      const iv = publicRandomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT]), keyId, iv, cipher.getAuthTag(), body]);
    },
    decrypt(stored, context = '') {
      if (stored.length < HEADER || stored[0] !== FORMAT) throw new Error('not an encrypted value');
      if (!stored.subarray(1, 1 + KEY_ID_BYTES).equals(keyId))
        throw new Error('value was encrypted under another ELIGO_ENCRYPTION_KEY');
      const iv = stored.subarray(1 + KEY_ID_BYTES, 1 + KEY_ID_BYTES + IV_BYTES);
      const tag = stored.subarray(1 + KEY_ID_BYTES + IV_BYTES, HEADER);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(stored.subarray(HEADER)), decipher.final()]).toString('utf8');
    },
    lookupHash(normalised) {
      return createHmac('sha256', macKey).update(normalised, 'utf8').digest();
    },
  };
}

/** ELIGO_ENCRYPTION_KEY: 32 bytes as base64/base64url (44/43 chars) or hex (64 chars). */
export function parseMasterKey(text: string): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (bytes.length !== MASTER_KEY_BYTES)
    throw new Error('must be 32 bytes, as 64 hex or 44 base64 characters');
  return bytes;
}

function assertMasterKey(key: Buffer): void {
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`master key must be ${MASTER_KEY_BYTES} bytes`);
}
