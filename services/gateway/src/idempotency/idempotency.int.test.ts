import { randomBytes } from 'node:crypto';
import { createDb, createFieldCipher, migrateSchema, type Knex } from '@eligo/runtime';
import type { OrganizationsClient } from '../clients/organizations.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';
import { createIdempotencyStore, idempotencyMigration, type IdempotencyStore } from './store';

// Idempotency-Key on REST v2 POSTs, on real Postgres, against a counting organizations stand-in: one effect
// per key, the first answer replayed, another request under the same key refused.
const schema = `idem_${randomBytes(4).toString('hex')}`;
const programId = 'ab'.repeat(12);
let calls = 0;
let behaviour: 'ok' | 'unavailable' | 'slow' = 'ok';
let releaseSlow: () => void = () => {};
const organizations = standIn<OrganizationsClient>('organizations', {
  searchAddSchoolByName: async () => {
    calls += 1;
    if (behaviour === 'unavailable')
      throw Object.assign(new Error('organizations is down'), {
        code: 14,
        details: 'down',
        metadata: undefined,
      });
    if (behaviour === 'slow') await new Promise<void>((resolve) => (releaseSlow = resolve));
    return { result: { errorIds: [`answer-${calls}`], eligible: [], ineligible: [] } };
  },
});

let db: Knex;
let app: TestRestApp;
let store: IdempotencyStore;

beforeAll(async () => {
  db = createDb({
    url: process.env.ELIGO_TEST_DATABASE_URL!,
    schema,
    poolMax: 4,
    applicationName: 'idem-test',
  });
  await migrateSchema(db, schema, [idempotencyMigration]);
  store = createIdempotencyStore({
    db,
    schema,
    cipher: createFieldCipher(randomBytes(32), 'gateway.idempotency'),
    retentionMs: 86_400_000,
    lockMs: 2_000,
  });
  app = await startTestRestApp({ organizations, idempotency: store, idempotencyLockMs: 2_000 });
});
afterAll(async () => {
  app?.close();
  await db?.raw('drop schema if exists ?? cascade', [schema]);
  await db?.destroy();
});
beforeEach(() => {
  calls = 0;
  behaviour = 'ok';
});

const search = async (key: string | undefined, schoolName = 'Analytical', authorization?: string) => {
  const res = await fetch(`${app.origin}/rest/v2/organization/addSchool/search/name`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ programId, schoolName, schoolCountry: 'US' }),
  });
  return {
    status: res.status,
    replayed: res.headers.get('idempotent-replayed'),
    body: (await res.json()) as { errorIds: string[] },
  };
};
const newKey = () => randomBytes(16).toString('hex');

it('runs a request once per key and answers a retry with the first answer, marked replayed', async () => {
  const key = newKey();
  const first = await search(key);
  const retry = await search(key);
  expect(first).toMatchObject({ status: 200, replayed: null });
  expect(retry).toEqual({ ...first, replayed: 'true' });
  expect(calls).toBe(1);
  // Without a key every request runs.
  await search(undefined);
  await search(undefined);
  expect(calls).toBe(3);
});

it('refuses the same key with another body (422) and keeps keys per credential', async () => {
  const key = newKey();
  await search(key, 'Analytical');
  const other = await search(key, 'Babbage');
  expect(other.status).toBe(422);
  expect(other.body.errorIds).toEqual(['idempotencyKeyReused']);
  // Another caller's key of the same value is another key.
  expect((await search(key, 'Babbage', 'Bearer someone-else')).status).toBe(200);
  expect(calls).toBe(2);
});

it('keeps no 5xx: the retry after an outage runs again', async () => {
  const key = newKey();
  behaviour = 'unavailable';
  expect((await search(key)).status).toBe(503);
  behaviour = 'ok';
  const retry = await search(key);
  expect(retry).toMatchObject({ status: 200, replayed: null });
  expect(calls).toBe(2);
});

it('answers 409 with Retry-After while the first request still runs', async () => {
  const key = newKey();
  behaviour = 'slow';
  const first = search(key);
  while (calls === 0) await new Promise((r) => setTimeout(r, 10));
  const res = await fetch(`${app.origin}/rest/v2/organization/addSchool/search/name`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ programId, schoolName: 'Analytical', schoolCountry: 'US' }),
  });
  expect([res.status, res.headers.get('retry-after')]).toEqual([409, '1']);
  expect(((await res.json()) as { errorIds: string[] }).errorIds).toEqual(['idempotencyKeyInUse']);
  releaseSlow();
  expect((await first).status).toBe(200);
  // The answer is kept once it has been sent (middleware.ts): a retry in that moment is still told 409.
  let retry = await search(key);
  for (let i = 0; retry.status === 409 && i < 50; i += 1) {
    await new Promise((r) => setTimeout(r, 20));
    retry = await search(key);
  }
  expect(retry.replayed).toBe('true');
  expect(calls).toBe(1);
});

it('keeps the key of a request that runs longer than the lock period (it renews its hold)', async () => {
  const key = newKey();
  behaviour = 'slow';
  const long = search(key);
  while (calls === 0) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 2_500)); // past one lock period (2 s here)
  expect((await search(key)).status).toBe(409);
  releaseSlow();
  expect((await long).status).toBe(200);
  expect(calls).toBe(1);
});

it('lets a retry take over a key whose gateway died mid-request, once its lock ran out', async () => {
  const key = newKey();
  // A gateway that died: its request never ends and nothing renews its hold any more.
  const dead = await startTestRestApp({
    organizations,
    idempotency: { ...store, extend: async () => {} },
    idempotencyLockMs: 2_000,
  });
  behaviour = 'slow';
  const stuck = fetch(`${dead.origin}/rest/v2/organization/addSchool/search/name`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ programId, schoolName: 'Analytical', schoolCountry: 'US' }),
  });
  while (calls === 0) await new Promise((r) => setTimeout(r, 10));
  expect((await search(key)).status).toBe(409);
  await new Promise((r) => setTimeout(r, 2_100)); // the lock (2 s here) runs out
  behaviour = 'ok';
  expect((await search(key)).status).toBe(200);
  expect(calls).toBe(2);
  releaseSlow();
  await stuck;
  dead.close();
});

it('refuses a key that is not 1 to 255 visible ASCII characters', async () => {
  expect((await search('x'.repeat(256))).status).toBe(400);
  expect((await search('caf\u00e9')).status).toBe(400);
  expect(calls).toBe(0);
});
