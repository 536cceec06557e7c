import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModuleDefinition } from '../../src/module/deps';
import { runMigrations } from '../../src/module/migrate-command';
import type { Module } from '../../src/module/module';
import { testInfra } from '../events/helpers';

// `eligo migrate --target all` migrates every module of the entry point's registry that has a schema. It once
// skipped the gateway by name, though the gateway owns a schema (idempotency keys, rate limits).
const infra = testInfra();
const dataDir = mkdtempSync(join(tmpdir(), 'eligo-migrate-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A module that records its migration; what it migrates is its own business (here: nothing). */
function recording(name: string, migrated: string[]): ModuleDefinition {
  const module: Module = {
    name,
    dependsOn: [],
    grpcServices: [],
    migrate: async () => void migrated.push(name),
    start: async () => undefined,
    stop: async () => undefined,
    ready: async () => true,
  };
  return { dependsOn: [], createModule: () => module };
}

const env = {
  ELIGO_DATA_DIR: dataDir,
  ELIGO_LOG_LEVEL: process.env.ELIGO_TEST_LOG_LEVEL ?? 'silent',
  ELIGO_ADMIN_TOKEN: `eligo_admin_${randomBytes(12).toString('hex')}`,
  ELIGO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  ELIGO_DATABASE_URL: infra.databaseUrl,
};

it('migrates every module of the registry for "all", the gateway included', async () => {
  const migrated: string[] = [];
  const modules = { gateway: recording('gateway', migrated), billing: recording('billing', migrated) };
  expect(await runMigrations({ env, target: 'all', modules, version: 'test' })).toBe(0);
  expect(migrated.sort()).toEqual(['billing', 'gateway']);
});

it('migrates only the named targets', async () => {
  const migrated: string[] = [];
  const modules = { gateway: recording('gateway', migrated), billing: recording('billing', migrated) };
  expect(await runMigrations({ env, target: 'gateway', modules, version: 'test' })).toBe(0);
  expect(migrated).toEqual(['gateway']);
});
