import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { organizationsApi, toCsv, toNdjson, type OrganizationFixture } from '../support/organizations-api';
import { call, programsApi, type ProgramsApi } from '../support/programs-api';

// POST /rest/admin/v1/organizations (bulk import, CSV or NDJSON, streamed) and GET .../organizations/{id},
// against the real organizations service. The import size limit is set small here to reach 413.
const MAX_BYTES = 4096;
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let orgs: ReturnType<typeof organizationsApi>;
let programId: string;

beforeAll(async () => {
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_GATEWAY_IMPORT_MAX_BYTES: String(MAX_BYTES),
  });
  api = programsApi(eligo);
  orgs = organizationsApi(api);
  const { accountId } = await api.createAccount('Importer');
  ({ programId } = await api.createProgram(accountId, {
    organizationRules: { types: ['OTHER', 'UNIVERSITY'] },
  }));
}, 180_000);
afterAll(async () => eligo?.stop());

const invalidRequest = (message: RegExp) => ({
  errorIds: ['invalidRequest'],
  systemErrorMessage: expect.stringMatching(message),
});
const row = (key: string, name: string, extra: Partial<OrganizationFixture> = {}): OrganizationFixture => ({
  externalId: key,
  name,
  type: 'UNIVERSITY',
  country: 'NL',
  ...extra,
});

describe('importing a catalog', () => {
  it('is idempotent by externalId: the same CSV again changes nothing, an edited row is updated', async () => {
    const rows = [
      row('csv-1', 'Leiden University', { domains: ['leidenuniv.nl', 'lumc.nl'], city: 'Leiden' }),
      row('csv-2', 'Delft University of Technology', { domains: ['tudelft.nl'] }),
      row('csv-3', 'Erasmus, "Rotterdam"', { type: 'OTHER' }),
    ];
    const first = await orgs.importCsv(rows);
    expect([first.status, first.body]).toEqual([
      200,
      { received: 3, created: 3, updated: 0, unchanged: 0, rejected: 0, errors: [] },
    ]);
    expect((await orgs.importCsv(rows)).body).toMatchObject({
      received: 3,
      created: 0,
      updated: 0,
      unchanged: 3,
    });
    const edited = [{ ...rows[0]!, state: 'South Holland' }, rows[1]!, rows[2]!];
    expect((await orgs.importCsv(edited)).body).toMatchObject({ created: 0, updated: 1, unchanged: 2 });

    const id = await orgs.idOf(programId, 'Leiden University');
    expect((await api.admin('GET', `/organizations/${id}`)).body).toEqual({
      id,
      name: 'Leiden University',
      type: 'UNIVERSITY',
      country: 'NL',
      domains: ['leidenuniv.nl', 'lumc.nl'],
      city: 'Leiden',
      state: 'South Holland',
      externalKey: 'csv-1',
      loginUrl: null,
    });
    expect(orgs.names(await orgs.search(programId, { name: 'Erasmus, "Rotterdam"' }))).toEqual([
      'Erasmus, "Rotterdam"',
    ]);
  });

  it('is idempotent with NDJSON too (application/x-ndjson or application/jsonl)', async () => {
    const rows = [
      row('nd-1', 'Utrecht University', { domains: ['uu.nl'] }),
      row('nd-2', 'Maastricht University'),
    ];
    const first = await orgs.importFile(toNdjson(rows), 'application/x-ndjson');
    expect(first.body).toMatchObject({ received: 2, created: 2 });
    const second = await orgs.importFile(toNdjson(rows), 'application/jsonl');
    expect(second.body).toMatchObject({ received: 2, created: 0, updated: 0, unchanged: 2, rejected: 0 });
  });

  it('carries loginUrl (CSV column, NDJSON key) to the admin read, never to the public search', async () => {
    const csvSso = 'https://login.uva.nl/saml/sso';
    const ndSso = 'https://sso.vu.nl/login?service=eligo';
    const csv = await orgs.importCsv([row('sso-1', 'University of Amsterdam', { loginUrl: csvSso })]);
    const ndjson = await orgs.importNdjson([
      row('sso-2', 'Vrije Universiteit Amsterdam', { loginUrl: ndSso }),
    ]);
    expect([csv.body, ndjson.body]).toEqual([
      { received: 1, created: 1, updated: 0, unchanged: 0, rejected: 0, errors: [] },
      { received: 1, created: 1, updated: 0, unchanged: 0, rejected: 0, errors: [] },
    ]);
    const uva = await orgs.idOf(programId, 'University of Amsterdam');
    const vu = await orgs.idOf(programId, 'Vrije Universiteit Amsterdam');
    expect((await api.admin('GET', `/organizations/${uva}`)).body).toMatchObject({ loginUrl: csvSso });
    expect((await api.admin('GET', `/organizations/${vu}`)).body).toMatchObject({ loginUrl: ndSso });
    // REST v2 search results are the spec's {id, name, country, type}.
    const found = await orgs.search(programId, { name: 'Amsterdam' });
    expect(found.body).toEqual(
      expect.arrayContaining([
        { id: uva, name: 'University of Amsterdam', country: 'NL', type: 'UNIVERSITY' },
      ]),
    );
    for (const organization of found.body as object[]) expect(organization).not.toHaveProperty('loginUrl');

    // Another URL updates the organization; an empty one clears it.
    const moved = 'https://login.uva.nl/sso';
    expect(
      (await orgs.importCsv([row('sso-1', 'University of Amsterdam', { loginUrl: moved })])).body,
    ).toMatchObject({
      updated: 1,
    });
    expect((await api.admin('GET', `/organizations/${uva}`)).body.loginUrl).toBe(moved);
    expect((await orgs.importCsv([row('sso-1', 'University of Amsterdam')])).body).toMatchObject({
      updated: 1,
    });
    expect((await api.admin('GET', `/organizations/${uva}`)).body.loginUrl).toBeNull();
  });

  it('rejects a row whose loginUrl is not an absolute https URL, naming its line', async () => {
    const res = await orgs.importCsv([
      row('badsso-1', 'Plain HTTP College', { loginUrl: 'http://sso.example.nl' }),
      row('badsso-2', 'Fine SSO College', { loginUrl: 'https://sso.example.nl/login' }),
      row('badsso-3', 'Relative SSO College', { loginUrl: '/login' }),
    ]);
    expect(res.body).toMatchObject({ received: 3, created: 1, rejected: 2 });
    expect(res.body.errors).toEqual([
      { line: 2, message: 'loginUrl: must be an absolute https URL (https://...)' },
      { line: 4, message: 'loginUrl: must be an absolute https URL (https://...)' },
    ]);
  });

  it('reports bad CSV rows by file line and imports the others', async () => {
    const csv = [
      'externalId,name,type,country,domains',
      'bad-1,Good One,UNIVERSITY,NL,',
      'bad-2,Wrong Type,CASTLE,NL,',
      'bad-3,,UNIVERSITY,NL,',
      'bad-4,Short Row',
      '',
      'bad-5,Bad Domain,UNIVERSITY,NL,nodot',
      'bad-6,Good Two,UNIVERSITY,NL,',
    ].join('\n');
    const res = await orgs.importFile(csv, 'text/csv');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 6, created: 2, rejected: 4 });
    expect(res.body.errors).toEqual([
      { line: 3, message: expect.stringMatching(/type/) },
      { line: 4, message: 'name is required' },
      { line: 5, message: expect.stringMatching(/one value per header column/) },
      { line: 7, message: expect.stringMatching(/domains/) },
    ]);
  });

  it('reports bad NDJSON lines (not JSON, not an object, wrong types) by physical line', async () => {
    const lines = [
      JSON.stringify(row('ndbad-1', 'Fine One')),
      '{"externalId": "ndbad-2", "name": ',
      '',
      '["not", "an", "object"]',
      JSON.stringify({ ...row('ndbad-3', 'Typed'), domains: 'one.nl' }),
      JSON.stringify(row('ndbad-4', 'Unknown Country', { country: 'XX' })),
      JSON.stringify(row('ndbad-5', 'Fine Two')),
    ].join('\n');
    const res = await orgs.importFile(lines, 'application/x-ndjson');
    expect(res.body).toMatchObject({ received: 6, created: 2, rejected: 4 });
    expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([2, 4, 5, 6]);
    expect(res.body.errors[0].message).toBe('not valid JSON');
    expect(res.body.errors[3].message).toMatch(/country/);
  });

  it('refuses a file it cannot read: unknown or missing columns, broken quoting (naming the line)', async () => {
    const unknownColumn = await orgs.importFile('externalId,name,type,country,zip\n', 'text/csv');
    expect([unknownColumn.status, unknownColumn.body]).toEqual([400, invalidRequest(/unknown column "zip"/)]);
    const missing = await orgs.importFile('externalId,name\na,b\n', 'text/csv');
    expect([missing.status, missing.body]).toEqual([
      400,
      invalidRequest(/required column\(s\) type, country/),
    ]);
    const broken = await orgs.importFile(
      `${toCsv([row('br-1', 'Before Break')])}br-2,"Open,UNIVERSITY,NL,\n`,
      'text/csv',
    );
    expect([broken.status, broken.body]).toEqual([
      400,
      invalidRequest(/malformed CSV at line \d.*idempotent/),
    ]);
  });

  it('answers 413 past ELIGO_GATEWAY_IMPORT_MAX_BYTES without importing, and 415 to other content types', async () => {
    const big = Array.from({ length: 200 }, (_, i) => row(`big-${i}`, `Big Import College ${i}`));
    const tooLarge = await orgs.importCsv(big);
    expect([tooLarge.status, tooLarge.body]).toEqual([
      413,
      invalidRequest(/larger than the limit of 4096 bytes/),
    ]);
    expect(await orgs.search(programId, { name: 'Big Import College' })).toMatchObject({
      status: 200,
      body: [],
    });

    const json = await api.admin('POST', '/organizations', { body: [row('j', 'Json')] });
    expect([json.status, json.body]).toEqual([415, invalidRequest(/Content-Type must be text\/csv/)]);
  });

  it('is for operators only (401 without the operator token or with an account token)', async () => {
    const base = `${eligo.httpUrl}/rest/admin/v1`;
    const csv = toCsv([row('x', 'X')]);
    const { accountId } = await api.createAccount('Intruder');
    const { token } = await api.createToken(accountId);
    for (const auth of [undefined, token]) {
      const options = { raw: csv, contentType: 'text/csv', ...(auth ? { token: auth } : {}) };
      expect((await call(base, 'POST', '/organizations', options)).status).toBe(401);
      expect((await call(base, 'GET', '/organizations/1', auth ? { token: auth } : {})).status).toBe(401);
      expect((await call(base, 'GET', '/addSchoolRequests', auth ? { token: auth } : {})).status).toBe(401);
    }
  });
});
