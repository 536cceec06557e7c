import { readFileSync } from 'node:fs';
import { AdminApiError } from './admin-client';

/** Wraps an action: prints its result as JSON, or the API's error body on stderr with exit code 1. */
export function run<A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      const result = await action(...args);
      process.stdout.write(JSON.stringify(result ?? {}, null, 2) + '\n');
    } catch (err) {
      if (err instanceof AdminApiError) {
        process.stderr.write(`eligo admin: ${err.message}\n${JSON.stringify(err.body, null, 2)}\n`);
      } else {
        process.stderr.write(`eligo admin: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      process.exitCode = 1;
    }
  };
}

export function readJsonObject(path: string): Record<string, unknown> {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${path} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/** Ids go into URL paths: encode so that a typo cannot address another endpoint. */
export const seg = (value: string): string => encodeURIComponent(value);
