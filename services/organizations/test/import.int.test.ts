import { organizationsOrganizationV1 } from '@eligo/proto';
import { failure, startOrganizations, type Harness } from './support';

type Input = organizationsOrganizationV1.OrganizationInput;
const org = (key: string, overrides: Partial<Input> = {}): Input => ({
  externalKey: key,
  name: `School ${key}`,
  type: 'UNIVERSITY',
  country: 'US',
  domains: [],
  city: '',
  state: '',
  loginUrl: '',
  ...overrides,
});

/** ImportOrganizations: upsert by external key, idempotent, per-row rejections, events in the outbox. */
describe('ImportOrganizations', () => {
  let h: Harness;
  const importRows = (organizations: Input[]) =>
    h.client.unary('importOrganizations', {
      rows: organizations.map((organization, i) => ({ line: i + 2, organization })),
    });
  const outboxTypes = async (keys: string[]) =>
    (
      (await h.db.table('outbox').whereIn('key', keys).orderBy('id').select('event_type')) as {
        event_type: string;
      }[]
    ).map((r) => r.event_type);
  const idsOf = async (keys: string[]) =>
    (
      (await h.db
        .table('organizations')
        .whereIn('external_key', keys)
        .orderBy('external_key')
        .select('id')) as {
        id: string;
      }[]
    ).map((r) => r.id);

  beforeAll(async () => {
    h = await startOrganizations();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('creates rows, then finds the same rows unchanged, then updates a changed one', async () => {
    const rows = [org('a1', { domains: ['a1.edu'], city: 'Ames', state: 'IA' }), org('a2'), org('a3')];
    expect(await importRows(rows)).toEqual({ created: 3, updated: 0, unchanged: 0, rejected: [] });
    expect(await importRows(rows)).toEqual({ created: 0, updated: 0, unchanged: 3, rejected: [] });
    const changed = [rows[0]!, { ...rows[1]!, name: 'School a2 renamed' }, rows[2]!];
    expect(await importRows(changed)).toEqual({ created: 0, updated: 1, unchanged: 2, rejected: [] });

    const ids = await idsOf(['a1', 'a2', 'a3']);
    expect(await outboxTypes(ids)).toEqual([
      'eligo.organizations.v1.OrganizationAdded',
      'eligo.organizations.v1.OrganizationAdded',
      'eligo.organizations.v1.OrganizationAdded',
      'eligo.organizations.v1.OrganizationUpdated',
    ]);
    const { organization } = await h.client.unary('getOrganization', { organizationId: Number(ids[1]) });
    expect(organization).toMatchObject({ name: 'School a2 renamed', externalKey: 'a2' });
  });

  it('rejects bad rows by line and stores the good ones of the same batch', async () => {
    const result = await importRows([
      org('b1'),
      org('b2', { type: 'SCHOOL' }),
      org('b3', { country: 'XX', domains: ['nope'] }),
      org('b4', { name: '   ' }),
      org('b5', { domains: ['b5.example.edu'] }),
    ]);
    expect(result).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      rejected: [
        { line: 3, message: 'type: "SCHOOL" is not an organization type' },
        {
          line: 4,
          message:
            'country: "XX" is not an ISO 3166-1 alpha-2 country code; domains: "nope" must contain a period (e.g. example.edu)',
        },
        { line: 5, message: 'name: is required' },
      ],
    });
    expect(await h.db.table('organizations').whereIn('external_key', ['b2', 'b3', 'b4']).count()).toEqual([
      { count: '0' },
    ]);
  });

  it('stores a login URL, returns it from GetOrganization, and updates or clears it by re-import', async () => {
    const sso = 'https://sso.g1.example.edu/login?app=eligo';
    expect(await importRows([org('g1', { loginUrl: sso }), org('g2')])).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    const [g1, g2] = await idsOf(['g1', 'g2']);
    const stored = async () =>
      (await h.db.table('organizations').where({ external_key: 'g1' }).first('login_url')) as {
        login_url: string | null;
      };
    expect(await stored()).toEqual({ login_url: sso });
    const get = async (id: string | undefined) =>
      (await h.client.unary('getOrganization', { organizationId: Number(id) })).organization;
    expect(await get(g1)).toMatchObject({ externalKey: 'g1', loginUrl: sso });
    expect((await get(g2))!.loginUrl).toBe('');

    // The same URL again is no change; another one (or none) is an update.
    expect(await importRows([org('g1', { loginUrl: sso })])).toMatchObject({ unchanged: 1, updated: 0 });
    const moved = 'https://login.g1.example.edu/';
    expect(await importRows([org('g1', { loginUrl: moved })])).toMatchObject({ updated: 1 });
    expect((await get(g1))!.loginUrl).toBe(moved);
    expect(await importRows([org('g1')])).toMatchObject({ updated: 1 });
    expect(await stored()).toEqual({ login_url: null });
    expect((await get(g1))!.loginUrl).toBe('');
  });

  it('rejects a row whose login URL is not an absolute https URL', async () => {
    const result = await importRows([
      org('h1', { loginUrl: 'http://sso.h1.example.edu' }),
      org('h2', { loginUrl: 'sso.h2.example.edu/login' }),
      org('h3', { loginUrl: `https://sso.example.edu/${'x'.repeat(2048)}` }),
      org('h4', { loginUrl: 'https://sso.h4.example.edu/login' }),
    ]);
    expect(result).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      rejected: [
        { line: 2, message: 'loginUrl: must be an absolute https URL (https://...)' },
        { line: 3, message: 'loginUrl: must be an absolute https URL (https://...)' },
        { line: 4, message: 'loginUrl: must be at most 2048 characters' },
      ],
    });
    expect(await h.db.table('organizations').whereIn('external_key', ['h1', 'h2', 'h3']).count()).toEqual([
      { count: '0' },
    ]);
  });

  it('lets the last row win when a key appears twice in a batch', async () => {
    const result = await importRows([org('c1', { name: 'First' }), org('c2'), org('c1', { name: 'Second' })]);
    expect(result).toEqual({ created: 2, updated: 0, unchanged: 0, rejected: [] });
    const [row] = await h.db.table('organizations').where({ external_key: 'c1' }).select('name');
    expect(row).toEqual({ name: 'Second' });
  });

  it('normalises what it stores: upper-case codes, lower-case domains, folded search name', async () => {
    await importRows([
      org('d1', { name: ' Universität  Zürich ', type: 'university', country: 'ch', domains: ['UZH.CH.'] }),
    ]);
    const [row] = await h.db
      .table('organizations')
      .where({ external_key: 'd1' })
      .select('name', 'search_name', 'type', 'country', 'domains', 'city', 'state');
    expect(row).toEqual({
      name: 'Universität  Zürich',
      search_name: 'universitat zurich',
      type: 'UNIVERSITY',
      country: 'CH',
      domains: ['uzh.ch'],
      city: null,
      state: null,
    });
  });

  it('refuses more than 1000 rows per call', async () => {
    const err = await failure(importRows(Array.from({ length: 1001 }, (_, i) => org(`e${i}`))));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    expect(await h.db.table('organizations').where('external_key', 'like', 'e%').count()).toEqual([
      { count: '0' },
    ]);
  });

  it('imports a full batch of 1000 rows in one call', async () => {
    const result = await importRows(
      Array.from({ length: 1000 }, (_, i) => org(`f${i}`, { domains: [`f${i}.edu`] })),
    );
    expect(result).toEqual({ created: 1000, updated: 0, unchanged: 0, rejected: [] });
  });
});
