import type { Config } from './config';

const SECRET_KEYS = new Set(['adminToken', 'internalTokens', 'encryptionKey', 'secretKey', 'accessKey']);
/** Masked whole: even the last characters of a password narrow down guessing it. */
const PASSWORD_KEYS = new Set(['password']);

/**
 * The effective config for `--print-config`: secrets masked (passwords whole, tokens and keys but for their last
 * characters), passwords stripped from URLs, file paths shown.
 */
export function maskConfig(config: Config): unknown {
  const { env: _raw, ...effective } = config;
  return mask(effective, '');
}

function mask(value: unknown, key: string): unknown {
  if (value === undefined || value === null) return value ?? null;
  if (PASSWORD_KEYS.has(key)) return '****';
  // The Kafka CA certificates are not secret, only long: their file is shown beside them.
  if (key === 'ca' && Array.isArray(value)) return `<${value.length} PEM certificate(s)>`;
  if (SECRET_KEYS.has(key))
    return typeof value === 'string' ? `****${value.length > 8 ? value.slice(-4) : ''}` : '****';
  if (typeof value === 'string') return maskUrlPassword(value);
  if (Array.isArray(value)) return value.map((v) => mask(v, ''));
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, mask(v, k)]),
    );
  }
  return value;
}

export function maskUrlPassword(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return value;
  }
}
