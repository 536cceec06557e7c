import type { Knex } from 'knex';
import { Client, type ClientConfig } from 'pg';
import { assertSchemaName } from './knex';

/** A migration of one schema: named, ordered by name, written as code so that it ships in the build. */
export interface SchemaMigration {
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
  down?(knex: Knex, schema: string): Promise<void>;
}

/**
 * Applies a module's migrations to its own schema, tracked in that schema's own migrations table
 * (`<schema>.knex_migrations`), so services migrate independently (docs/architecture.md, "Data ownership").
 */
export async function migrateSchema(
  db: Knex,
  schema: string,
  migrations: readonly SchemaMigration[],
): Promise<string[]> {
  assertSchemaName(schema);
  // Replicas of a service start together: a session advisory lock (on its own connection, so that a pool of
  // one still works) serialises them; the later ones find nothing left to apply.
  const lock = new Client(db.client.connectionSettings as ClientConfig);
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', [`eligo.migrate.${schema}`]);
    await db.raw('create schema if not exists ??', [schema]);
    return await latest(db, schema, migrations);
  } finally {
    await lock.end().catch(() => undefined);
  }
}

async function latest(db: Knex, schema: string, migrations: readonly SchemaMigration[]): Promise<string[]> {
  const byName = new Map(migrations.map((m) => [m.name, m]));
  const source: Knex.MigrationSource<SchemaMigration> = {
    getMigrations: async () => [...migrations].sort((a, b) => a.name.localeCompare(b.name)),
    getMigrationName: (m) => m.name,
    getMigration: async (m) => {
      const found = byName.get(m.name) ?? m;
      return {
        up: (knex: Knex) => found.up(knex, schema),
        down: (knex: Knex) => (found.down ? found.down(knex, schema) : Promise.resolve()),
      };
    },
  };
  const [, applied] = (await db.migrate.latest({
    migrationSource: source,
    schemaName: schema,
    tableName: 'knex_migrations',
  })) as [number, string[]];
  return applied;
}

/** The names of applied migrations of a schema, oldest first. */
export async function appliedMigrations(db: Knex, schema: string): Promise<string[]> {
  assertSchemaName(schema);
  const rows = (await db.withSchema(schema).table('knex_migrations').select('name').orderBy('id')) as {
    name: string;
  }[];
  return rows.map((r) => r.name);
}
