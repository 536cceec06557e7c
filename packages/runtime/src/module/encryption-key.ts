import { randomBytes } from 'node:crypto';
import type { Config } from '../config/config';
import { ConfigError } from '../config/config';
import { parseMasterKey } from '../crypto/field-cipher';
import { loadOrCreateSecret } from './secrets';

/**
 * The master key for data at rest. With a real database it must come from ELIGO_ENCRYPTION_KEY: replicas that
 * each generated their own key could not read each other's rows. The embedded default keeps one generated key
 * in its data dir, beside the database it protects.
 */
export function resolveEncryptionKey(config: Config, needsKey: boolean): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  if (config.database.url && needsKey) {
    throw new ConfigError([
      'ELIGO_ENCRYPTION_KEY is required with ELIGO_DATABASE_URL (32 bytes as 64 hex or 44 base64 characters, ' +
        'e.g. `openssl rand -base64 32`); every replica must share it',
    ]);
  }
  return parseMasterKey(
    loadOrCreateSecret(config.dataDir, 'encryption-key', () => randomBytes(32).toString('base64')),
  );
}
