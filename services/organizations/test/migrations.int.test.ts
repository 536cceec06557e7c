import { createTestDatabase } from '@eligo/local-infra';
import { createDb, createLogger, migrateSchema, serviceBaseMigrations } from '@eligo/runtime';
import { migrationsFor } from '../migrations';

/** 001_catalog installs pg_trgm in the service's schema, and says how to fix a database that has it elsewhere. */
describe('catalog migration', () => {
  const migrations = [
    ...serviceBaseMigrations,
    ...migrationsFor({ seed: 'none', logger: createLogger({ level: 'silent' }) }),
  ];

  it('installs pg_trgm in the organizations schema of a fresh database', async () => {
    const database = await createTestDatabase();
    const db = createDb({
      url: database.url,
      schema: 'organizations',
      poolMax: 2,
      applicationName: 'org-migrate-it',
    });
    try {
      await migrateSchema(db, 'organizations', migrations);
      const result = await db.raw<{ rows: { nspname: string }[] }>(
        `select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
      );
      expect(result.rows).toEqual([{ nspname: 'organizations' }]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });

  it('refuses to run with pg_trgm installed in another schema, naming the fix', async () => {
    jest.spyOn(console, 'log').mockImplementation(() => undefined); // knex prints the failed migration
    const database = await createTestDatabase();
    const db = createDb({
      url: database.url,
      schema: 'organizations',
      poolMax: 2,
      applicationName: 'org-migrate-it',
    });
    try {
      await db.raw('create extension pg_trgm with schema public');
      await expect(migrateSchema(db, 'organizations', migrations)).rejects.toThrow(
        'the pg_trgm extension is installed in schema "public" of this database, but the organizations service ' +
          'needs it in "organizations"',
      );
      await expect(migrateSchema(db, 'organizations', migrations)).rejects.toThrow(
        'ALTER EXTENSION pg_trgm SET SCHEMA organizations;',
      );
      await db.raw('alter extension pg_trgm set schema organizations');
      await expect(migrateSchema(db, 'organizations', migrations)).resolves.toContain('001_catalog');
    } finally {
      jest.restoreAllMocks();
      await db.destroy();
      await database.drop();
    }
  });
});
