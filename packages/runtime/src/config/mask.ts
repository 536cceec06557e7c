import type { Config } from './config';

const SECRET_KEYS = new Set([
  'adminToken',
  'internalTokens',
  'encryptionKey',
  'secretKey',
  'accessKey',
  'password',
]);

/** The effective config for `--print-config`: secrets masked, passwords stripped from URLs. */
export function maskConfig(config: Config): unknown {
  const { env: _raw, ...effective } = config;
  return mask(effective, '');
}

function mask(value: unknown, key: string): unknown {
  if (value === undefined || value === null) return value ?? null;
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
