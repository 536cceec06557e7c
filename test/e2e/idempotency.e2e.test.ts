import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { importUniversity, janeDoe } from '../support/verification-api';

// Idempotency-Key through a real `eligo start` (issue 18, item 8): a client that retries after a lost answer
// gets the first answer, never a second verification, and a retried step after success answers the same 200.
const token = `eligo_admin_${'idempotent'.repeat(3)}`;
let suite: EligoSuite;
let api: ProgramsApi;
let programId: string;

beforeAll(async () => {
  suite = await startEligoSuite(token);
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken: token });
  const tenant = await api.tenant('Idempotent Co');
  programId = tenant.program.programId;
}, 120_000);
afterAll(async () => suite?.stop());

const post = (path: string, key: string, body: unknown) =>
  api.v2('POST', path, { body, headers: { 'idempotency-key': key } });

/** What a gateway that died between the service's answer and keeping it leaves: no kept answer at all. */
async function forgetKeptAnswers(): Promise<void> {
  const db = new Client({ connectionString: suite.databaseUrl });
  await db.connect();
  try {
    await db.query('delete from gateway.idempotency_keys');
  } finally {
    await db.end();
  }
}

it('answers a retried POST /verification with the first answer, and a changed body with 422', async () => {
  const key = randomUUID();
  const first = await post('/verification', key, { programId, trackingId: 'retry-1' });
  const retry = await post('/verification', key, { programId, trackingId: 'retry-1' });
  expect(first.status).toBe(200);
  expect(retry.status).toBe(200);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(retry.body).toEqual(first.body);
  const changed = await post('/verification', key, { programId, trackingId: 'retry-2' });
  expect([changed.status, changed.body.errorIds]).toEqual([422, ['idempotencyKeyReused']]);
  // A new key is a new request.
  const other = await post('/verification', randomUUID(), { programId, trackingId: 'retry-1' });
  expect(other.body.verificationId).not.toBe(first.body.verificationId);
}, 60_000);

it('creates no second verification even when the first answer was never kept (the gateway died)', async () => {
  const key = randomUUID();
  const first = await post('/verification', key, { programId, trackingId: 'lost-answer' });
  await forgetKeptAnswers();
  const retry = await post('/verification', key, { programId, trackingId: 'lost-answer' });
  expect(retry.headers.get('idempotent-replayed')).toBeNull(); // it ran again...
  expect(retry.body.verificationId).toBe(first.body.verificationId); // ...and found the same verification
}, 60_000);

it('answers a retried step after success with the same 200 success, kept or not', async () => {
  const organization = await importUniversity(api, programId, 'Idempotent University');
  const started = await post('/verification', randomUUID(), { programId });
  const { verificationId } = started.body;
  const key = randomUUID();
  const body = { ...janeDoe, organization };
  const path = `/verification/${verificationId}/step/collectStudentPersonalInfo`;
  const first = await post(path, key, body);
  expect(first.status).toBe(200);
  const replay = await post(path, key, body);
  expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  expect(replay.body).toEqual(first.body);
  await forgetKeptAnswers();
  const rerun = await post(path, key, body);
  expect(rerun.status).toBe(200);
  expect(rerun.body.currentStep).toBe(first.body.currentStep);
  // Without the key, the same step again is what it always was: the verification has moved on.
  expect((await api.v2('POST', path, { body })).status).toBe(400);
}, 60_000);
