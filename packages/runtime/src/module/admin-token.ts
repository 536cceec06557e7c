import { randomBytes } from 'node:crypto';
import { loadOrCreateSecret } from './secrets';

/**
 * The operator token: from config when set; otherwise generated once and kept in the data dir so that it
 * survives restarts of the embedded default. `generated` tells the launcher to print it.
 */
export function resolveAdminToken(
  configured: string | undefined,
  dataDir: string,
): { token: string; generated: boolean } {
  if (configured) return { token: configured, generated: false };
  const token = loadOrCreateSecret(
    dataDir,
    'admin-token',
    () => `eligo_admin_${randomBytes(24).toString('base64url')}`,
  );
  return { token, generated: true };
}
