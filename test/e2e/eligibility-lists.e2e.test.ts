import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi } from '../support/programs-api';

// A program's customer eligibility list through the admin API, against the real gateway and verification
// service: CSV and NDJSON uploads, an atomic replace, the counts, a refused row, the removal and the audit.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let programId: string;
const startedAt = new Date().toISOString();

beforeAll(async () => {
  eligo = await startAllInProcess();
  api = programsApi(eligo);
  const account = await api.createAccount('Lists');
  programId = (await api.createProgram(account.accountId, { segment: 'member' })).programId;
}, 120_000);
afterAll(async () => {
  await eligo?.stop();
});

const path = () => `/programs/${programId}/eligibility-list`;
const upload = (raw: string, contentType: string) => api.admin('PUT', path(), { raw, contentType });

it('uploads a CSV, reports a bad row with its line, and answers the counts', async () => {
  const csv = [
    'email,memberId,firstName,lastName,birthDate',
    'ann.lee@example.com,M-1,,,',
    ',,Bob,Stone,1990-05-06',
    'broken,,,,',
    'ANN.LEE@example.com,,,,',
    ',,Carl,Ray,1990-02-30',
  ].join('\n');
  const reply = await upload(csv, 'text/csv');
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({
    list: { programId, version: 1, format: 'csv', rows: 3, identifiers: 3 },
    rowsRead: 5,
    rowsStored: 3,
    rowsRefused: 2,
    duplicates: 1,
    refusals: [
      { line: 4, reason: 'email is not an email address' },
      { line: 6, reason: 'birthDate is not a YYYY-MM-DD date' },
    ],
  });
  const got = await api.admin('GET', path());
  expect(got.status).toBe(200);
  expect(got.body).toEqual(reply.body.list);
  // No value of the file comes back anywhere.
  expect(JSON.stringify(got.body)).not.toMatch(/ann|stone/i);
});

it('replaces it with an NDJSON upload, atomically: a broken file leaves the active version', async () => {
  const ndjson = [
    JSON.stringify({ email: 'new@example.com' }),
    JSON.stringify({ employeeId: 'E-7', firstName: 'Dee', lastName: 'Fox', birthDate: '1980-01-01' }),
    '',
  ].join('\n');
  const reply = await upload(ndjson, 'application/x-ndjson');
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({ list: { version: 2, format: 'ndjson', rows: 2, identifiers: 3 } });

  const broken = await upload('email,memberId\n"a@b.co,1\nb@c.co,2\n', 'text/csv');
  expect(broken.status).toBe(400);
  expect(broken.body.systemErrorMessage).toMatch(/malformed CSV.*nothing was imported/);
  const unknownColumn = await upload('email,phone\na@b.co,1\n', 'text/csv');
  expect(unknownColumn.status).toBe(400);
  expect((await api.admin('GET', path())).body).toMatchObject({ version: 2, rows: 2 });
});

it('refuses another media type and an unknown program', async () => {
  expect((await upload('{}', 'application/json')).status).toBe(415);
  const unknown = await api.admin('PUT', `/programs/${unknownId}/eligibility-list`, {
    raw: 'email\na@b.co\n',
    contentType: 'text/csv',
  });
  expect(unknown.status).toBe(404);
  expect(unknown.body.errorIds).toEqual(['noProgram']);
});

it('deletes the list; GET and DELETE then answer 404', async () => {
  expect((await api.admin('DELETE', path())).status).toBe(204);
  const none = await api.admin('GET', path());
  expect(none.status).toBe(404);
  expect(none.body).toEqual({ errorIds: [], systemErrorMessage: 'The program has no eligibility list' });
  expect((await api.admin('DELETE', path())).status).toBe(404);
});

it('writes the uploads and the removal to the audit log, with the version and no value', async () => {
  const audit = await api.admin('GET', `/audit?from=${encodeURIComponent(startedAt)}&limit=500`);
  expect(audit.status).toBe(200);
  const entries = (audit.body.entries as { action: string; status: number; targets: unknown }[]).filter((e) =>
    e.action.includes('EligibilityList'),
  );
  expect(entries.map((e) => `${e.action} ${e.status}`).reverse()).toEqual([
    'adminPutEligibilityList 200',
    'adminPutEligibilityList 200',
    'adminPutEligibilityList 400',
    'adminPutEligibilityList 400',
    'adminPutEligibilityList 415',
    'adminPutEligibilityList 404',
    'adminDeleteEligibilityList 204',
    'adminDeleteEligibilityList 404',
  ]);
  expect(entries.at(-1)!.targets).toEqual({ programId, listVersion: '1' });
  expect(JSON.stringify(entries)).not.toMatch(/example\.com/);
});
