import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const randomSecret = (): string => randomBytes(32).toString('base64url');

/** A random secret kept in the data dir (mode 0600), for embedded-mode keys that must survive restarts. */
export function loadOrCreateSecret(
  dataDir: string,
  name: string,
  generate: () => string = randomSecret,
): string {
  const file = join(dataDir, name);
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length >= 24) return value;
  }
  mkdirSync(dataDir, { recursive: true });
  const value = generate();
  writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}
