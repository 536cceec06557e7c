import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import pg from 'pg';

/**
 * The yardstick of the verification bench: the same two requests served by one Express 5 app on one pg pool,
 * with the database work Eligo's verification service does for them, statement for statement (as of commit
 * e190f51, which added the step history):
 * - start: BEGIN, INSERT verification, INSERT step, 2 x (INSERT event, NOTIFY), COMMIT (Eligo: the row, its
 *   first verification_steps row, then VerificationCreated and VerificationStepChanged, each an outbox row
 *   plus pg_notify);
 * - submit: BEGIN, SELECT ... FOR UPDATE, UPDATE, INSERT step, 2 x (INSERT event, NOTIFY), COMMIT (Eligo:
 *   loadLocked, updateVerification, insertStep, VerificationStepChanged and VerificationSucceeded).
 * What it does NOT do, and Eligo does: the gateway's gRPC hop to the verification service (per request); the
 * program lookup on the programs service (gRPC, on both requests) and the organization check on the
 * organizations service (gRPC, on submit); the gateway's request checks and the domain's validation and
 * normalisation of the subject; AES-256-GCM sealing of the person and the two HMAC lookup hashes; protobuf
 * events with CloudEvent headers; a 28-column row with five partial indexes and a foreign key on the steps
 * (here five columns and primary keys only); the outbox relay that then publishes every event to Kafka;
 * logging, metrics and tracing middleware.
 *
 * With `lean`, it takes the round trips Eligo takes since (docs/benchmarks.md, "A submission in one
 * statement"): start is one statement (the row, its step, both events and the NOTIFY as WITH parts), submit
 * an unlocked read and one statement that applies only to the row version read, each prepared (named) as
 * Eligo's are. Same rows, 3 round trips per flow instead of 17: the yardstick for what Eligo's layers cost
 * beside today's statements.
 */
export interface Baseline {
  url: string;
  close(): Promise<void>;
}

const SCHEMA = 'bench_baseline';
const STEP = 'collectStudentPersonalInfo';

/** `poolMax` should be the verification service's own pool size (ELIGO_DB_POOL_MAX, 5 by default). */
export async function startBaseline(
  databaseUrl: string,
  poolMax: number,
  { lean = false }: { lean?: boolean } = {},
): Promise<Baseline> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolMax,
    application_name: 'bench-baseline',
  });
  await pool.query(`
    create schema if not exists ${SCHEMA};
    create table if not exists ${SCHEMA}.verifications (
      id text primary key, program_id text not null, step text not null, last_response jsonb not null,
      created_at timestamptz not null default now());
    create table if not exists ${SCHEMA}.steps (
      id bigserial primary key, verification_id text not null, step text not null, previous_step text not null,
      occurred_at timestamptz not null default now());
    create table if not exists ${SCHEMA}.events (
      id bigserial primary key, verification_id text not null, event_type text not null, payload jsonb not null,
      created_at timestamptz not null default now(), published_at timestamptz);`);

  const step = (db: pg.PoolClient, id: string, previous: string, next: string) =>
    db.query(`insert into ${SCHEMA}.steps (verification_id, step, previous_step) values ($1, $2, $3)`, [
      id,
      next,
      previous,
    ]);

  /** One event as Eligo writes it: the outbox row, then the wake-up of the (here absent) relay. */
  const event = async (db: pg.PoolClient, id: string, type: string, payload: object) => {
    await db.query(
      `insert into ${SCHEMA}.events (verification_id, event_type, payload) values ($1, $2, $3)`,
      [id, type, payload],
    );
    await db.query(`select pg_notify('${SCHEMA}_outbox', '')`);
  };

  const transaction = async <T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> => {
    const db = await pool.connect();
    try {
      await db.query('begin');
      const result = await work(db);
      await db.query('commit');
      return result;
    } catch (err) {
      await db.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      db.release();
    }
  };

  const app = express();
  app.use(express.json());
  if (lean) leanRoutes(app, pool);
  app.post('/verification', async (req: Request, res: Response) => {
    const programId = String(req.body?.programId ?? '');
    if (!programId) return void res.status(400).json({ errorIds: ['invalidRequest'] });
    const id = randomBytes(12).toString('hex');
    const response = { verificationId: id, currentStep: STEP, errorIds: [], segment: 'student' };
    await transaction(async (db) => {
      await db.query(
        `insert into ${SCHEMA}.verifications (id, program_id, step, last_response) values ($1, $2, $3, $4)`,
        [id, programId, STEP, response],
      );
      await step(db, id, '', STEP);
      await event(db, id, 'VerificationCreated', { programId });
      await event(db, id, 'VerificationStepChanged', { previousStep: '', currentStep: STEP });
    });
    res.json(response);
  });
  app.post(`/verification/:id/step/${STEP}`, async (req: Request, res: Response) => {
    if (typeof req.body?.firstName !== 'string')
      return void res.status(400).json({ errorIds: ['invalidRequest'] });
    const id = String(req.params.id);
    const response = await transaction(async (db) => {
      const { rows } = await db.query(`select * from ${SCHEMA}.verifications where id = $1 for update`, [id]);
      if (rows.length === 0) return 404;
      if (rows[0].step !== STEP) return 409;
      const done = { verificationId: id, currentStep: 'success', errorIds: [], segment: 'student' };
      await db.query(`update ${SCHEMA}.verifications set step = $2, last_response = $3 where id = $1`, [
        id,
        'success',
        done,
      ]);
      await step(db, id, STEP, 'success');
      await event(db, id, 'VerificationStepChanged', { previousStep: STEP, currentStep: 'success' });
      await event(db, id, 'VerificationSucceeded', { programId: rows[0].program_id });
      return done;
    });
    if (typeof response === 'number')
      return void res
        .status(response)
        .json({ errorIds: [response === 404 ? 'noVerification' : 'invalidStep'] });
    res.json(response);
  });

  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

/** The two routes in Eligo's round trips of today (`lean`): one statement per write. */
function leanRoutes(app: express.Express, pool: pg.Pool): void {
  const events = (first: string, second: string) =>
    `insert into ${SCHEMA}.events (verification_id, event_type, payload)` +
    ` select v.id, e.t, e.p from v, (values ('${first}', $4::jsonb), ('${second}', $5::jsonb)) as e (t, p)`;
  app.post('/verification', async (req: Request, res: Response) => {
    const programId = String(req.body?.programId ?? '');
    if (!programId) return void res.status(400).json({ errorIds: ['invalidRequest'] });
    const id = randomBytes(12).toString('hex');
    const response = { verificationId: id, currentStep: STEP, errorIds: [], segment: 'student' };
    await pool.query({
      name: 'lean_start',
      text:
        `with v as (insert into ${SCHEMA}.verifications (id, program_id, step, last_response)` +
        ` values ($1, $2, $3, $6) returning id),` +
        ` s as (insert into ${SCHEMA}.steps (verification_id, step, previous_step) select id, $3, '' from v),` +
        ` e as (${events('VerificationCreated', 'VerificationStepChanged')})` +
        ` select pg_notify('${SCHEMA}_outbox', '') from v`,
      values: [id, programId, STEP, { programId }, { previousStep: '', currentStep: STEP }, response],
    });
    res.json(response);
  });
  app.post(`/verification/:id/step/${STEP}`, async (req: Request, res: Response) => {
    if (typeof req.body?.firstName !== 'string')
      return void res.status(400).json({ errorIds: ['invalidRequest'] });
    const id = String(req.params.id);
    const { rows } = await pool.query({
      name: 'lean_read',
      text:
        `select id, program_id, step, last_response, created_at, xmin::text as version` +
        ` from ${SCHEMA}.verifications where id = $1`,
      values: [id],
    });
    if (rows.length === 0) return void res.status(404).json({ errorIds: ['noVerification'] });
    if (rows[0].step !== STEP) return void res.status(409).json({ errorIds: ['invalidStep'] });
    const done = { verificationId: id, currentStep: 'success', errorIds: [], segment: 'student' };
    const written = await pool.query({
      name: 'lean_submit',
      text:
        `with v as (update ${SCHEMA}.verifications set step = 'success', last_response = $3` +
        ` where id = $1 and xmin = $2::xid returning id),` +
        ` s as (insert into ${SCHEMA}.steps (verification_id, step, previous_step)` +
        ` select id, 'success', '${STEP}' from v),` +
        ` e as (${events('VerificationStepChanged', 'VerificationSucceeded')})` +
        ` select pg_notify('${SCHEMA}_outbox', '') from v`,
      values: [
        id,
        rows[0].version,
        done,
        { previousStep: STEP, currentStep: 'success' },
        { programId: rows[0].program_id },
      ],
    });
    if (written.rowCount === 0) return void res.status(409).json({ errorIds: ['invalidStep'] });
    res.json(done);
  });
}
