import { randomBytes } from 'node:crypto';
import { createDb, migrateSchema, type Knex } from '@eligo/runtime';
import pino from 'pino';
import type { OrganizationsClient } from '../clients/organizations.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import { addSchoolRequest } from '../../test/request-bodies';
import { standIn } from '../../test/stand-in';
import { createRateLimiters, rateLimitsMigration } from './rate-limits';

// The public creation limit on real Postgres (the store replicas share): per client address, tokenless
// requests only, the address read through the configured proxies.
const schema = `rl_${randomBytes(4).toString('hex')}`;
let calls = 0;
const organizations = standIn<OrganizationsClient>('organizations', {
  requestAddSchool: async () => {
    calls += 1;
    return { requestId: '12'.repeat(12) };
  },
});
let db: Knex;
let app: TestRestApp;

beforeAll(async () => {
  db = createDb({
    url: process.env.ELIGO_TEST_DATABASE_URL!,
    schema,
    poolMax: 4,
    applicationName: 'rl-test',
  });
  await migrateSchema(db, schema, [rateLimitsMigration]);
  const rateLimits = createRateLimiters(
    db,
    schema,
    { publicCreatePerMinute: 2, sendLinkPerHour: 0 },
    pino({ level: 'silent' }),
  );
  app = await startTestRestApp({ organizations, rateLimits, trustProxy: ['loopback'] });
});
afterAll(async () => {
  app?.close();
  await db?.raw('drop schema if exists ?? cascade', [schema]);
  await db?.destroy();
});

const addSchool = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${app.origin}/rest/v2/organization/addSchool`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(addSchoolRequest),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
};

it('answers 429 with Retry-After once an address used its budget, before any service call', async () => {
  const client = { 'x-forwarded-for': '203.0.113.7' };
  expect((await addSchool(client)).status).toBe(204);
  expect((await addSchool(client)).status).toBe(204);
  const third = await addSchool(client);
  expect(third.status).toBe(429);
  expect(Number(third.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(JSON.parse(third.body).errorIds).toEqual(['tooManyRequests']);
  expect(calls).toBe(2);
  // Another client behind the same proxy has its own budget.
  expect((await addSchool({ 'x-forwarded-for': '203.0.113.8' })).status).toBe(204);
  // A caller with a token (an integrator's backend) is not counted per address.
  expect((await addSchool({ ...client, authorization: 'Bearer integrator' })).status).toBe(204);
});
