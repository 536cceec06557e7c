import { randomBytes } from 'node:crypto';
import { createDb, migrateSchema, type Knex } from '@eligo/runtime';
import { documentsV1 } from '@eligo/proto';
import pino from 'pino';
import { AuthCache } from '../auth/auth-cache';
import { createAuthenticator, type Authenticator } from '../auth/authenticator';
import type { DocumentsClient } from '../clients/documents.client';
import type { ProgramsClient } from '../clients/programs.client';
import { rateLimitsMigration } from '../http/rate-limits';
import { BAD_CREDENTIALS } from '../routes/console-session';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';
import { signInLimit } from './sign-in-limit';
import { createStaffAccess, type StaffAccess } from './staff-access';
import { staffMigration } from './store';

// Staff identities through the REST app as mountRest mounts it, on real Postgres (the gateway's tables in a
// schema of this test), with a clock of the test's own for the session and lockout times: the admin API
// for staff (operator only), the console's sign-in, sessions and CSRF, roles, lockout, and the audit log.
const schema = `staff_${randomBytes(4).toString('hex')}`;
const MINUTE = 60_000;
const settings = {
  sessionLifetimeMs: 12 * 60 * MINUTE,
  sessionIdleMs: 30 * MINUTE,
  maxAttempts: 5,
  lockMs: 15 * MINUTE,
};
const reviewId = '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b';
let clock = Date.parse('2025-03-01T10:00:00.000Z');

const decisions: documentsV1.DecideReviewRequest[] = [];
const documents = standIn<DocumentsClient>('documents', {
  listReviews: async () => ({ reviews: [], nextCursor: '' }),
  decideReview: async (req: documentsV1.DecideReviewRequest) => {
    decisions.push(req);
    return {
      review: documentsV1.Review.fromPartial({
        reviewId: req.reviewId,
        verificationId: 'ab'.repeat(12),
        status: 'approved',
        submittedAt: new Date(clock - MINUTE),
        decidedAt: new Date(clock),
        decidedBy: req.decidedBy,
      }),
    };
  },
});
let accountCalls = 0;
const programs = standIn<ProgramsClient>('programs', {
  createAccount: async () => {
    accountCalls += 1;
    return { account: { accountId: 'cd'.repeat(12), name: 'Acme', created: new Date(clock) } };
  },
});

let db: Knex;
let access: StaffAccess;
let app: TestRestApp;

function authenticator(perMinute: number): Authenticator {
  return createAuthenticator({
    operatorToken: TEST_OPERATOR_TOKEN,
    cache: new AuthCache({ ttlMs: 0 }),
    authenticate: async () => {
      throw Object.assign(new Error('bad token'), { code: 16, details: 'bad token', metadata: undefined });
    },
    staff: { access, signInLimit: signInLimit(db, schema, perMinute, pino({ level: 'silent' })) },
  });
}

beforeAll(async () => {
  db = createDb({
    url: process.env.ELIGO_TEST_DATABASE_URL!,
    schema,
    poolMax: 6,
    applicationName: 'staff-test',
  });
  await migrateSchema(db, schema, [rateLimitsMigration, staffMigration]);
  access = createStaffAccess({
    db,
    schema,
    encryptionKey: randomBytes(32),
    settings,
    logger: pino({ level: 'silent' }),
    now: () => new Date(clock),
  });
  app = await startTestRestApp({
    documents,
    programs,
    publicBaseUrl: 'https://eligo.example.com',
    authenticator: authenticator(0),
  });
});
afterAll(async () => {
  app?.close();
  await db?.raw('drop schema if exists ?? cascade', [schema]);
  await db?.destroy();
});

interface Reply {
  status: number;
  headers: Headers;
  // Answers are read loosely: each test names the fields it checks.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function send(
  method: string,
  path: string,
  options: {
    body?: unknown;
    token?: string;
    cookie?: string;
    csrf?: string;
    headers?: Record<string, string>;
  } = {},
  origin = app.origin,
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${origin}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // NDJSON and other text stay text
  }
  return { status: res.status, headers: res.headers, body };
}

const operator = (method: string, path: string, body?: unknown) =>
  send(method, `/rest/admin/v1${path}`, { token: TEST_OPERATOR_TOKEN, body });

interface Session {
  staffId: string;
  cookie: string;
  csrf: string;
  setCookie: string;
}

/** A new staff member of the role, created by the operator; their email and password. */
async function member(role: string, name = 'Jane Doe') {
  const email = `${role}.${randomBytes(3).toString('hex')}@Example.com`;
  const created = await operator('POST', '/staff', { email, name, role });
  expect(created.status).toBe(201);
  return { email, password: created.body.password as string, staffId: created.body.staffId as string };
}

async function signIn(email: string, password: string): Promise<Reply> {
  return send('POST', '/console/session', { body: { email, password } });
}

async function session(email: string, password: string): Promise<Session> {
  const res = await signIn(email, password);
  expect([res.status, res.body]).toEqual([201, expect.objectContaining({ csrfToken: expect.any(String) })]);
  const setCookie = res.headers.get('set-cookie')!;
  return {
    staffId: res.body.staffId,
    cookie: setCookie.split(';')[0]!,
    csrf: res.body.csrfToken,
    setCookie,
  };
}

/** A call of the admin API with the session's cookie, and its csrfToken unless `csrf` says another (null: none). */
const asStaff = (s: Session, method: string, path: string, body?: unknown, csrf: string | null = s.csrf) =>
  send(method, `/rest/admin/v1${path}`, { cookie: s.cookie, csrf: csrf ?? undefined, body });

describe('staff members (operator token)', () => {
  it('creates one with a generated password shown once, stored encrypted, hashed and unique by email', async () => {
    const res = await operator('POST', '/staff', {
      email: 'Ann.Lee@Example.COM',
      name: ' Ann Lee ',
      role: 'support',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      staffId: expect.stringMatching(/^[0-9a-f]{24}$/),
      email: 'ann.lee@example.com',
      name: 'Ann Lee',
      role: 'support',
      disabled: false,
      disabledAt: null,
      lockedUntil: null,
      created: clock,
      updated: clock,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    const row = await db.withSchema(schema).table('staff_users').where({ id: res.body.staffId }).first();
    const stored = JSON.stringify(row);
    for (const plain of ['ann', 'Ann', 'example', res.body.password]) expect(stored).not.toContain(plain);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);

    const again = await operator('POST', '/staff', {
      email: 'ANN.LEE@example.com',
      name: 'Other',
      role: 'admin',
    });
    expect([again.status, again.body]).toEqual([
      409,
      { systemErrorMessage: 'A staff member with this email exists' },
    ]);

    const read = await operator('GET', `/staff/${res.body.staffId}`);
    expect(read.body).toEqual({ ...res.body, password: undefined });
    expect((await operator('GET', `/staff/${'0'.repeat(24)}`)).status).toBe(404);
    expect((await operator('GET', '/staff/not-an-id')).status).toBe(404);
  });

  it('lists them newest first, a page at a time', async () => {
    const made = [];
    for (let i = 0; i < 3; i += 1) {
      clock += 1000;
      made.push((await member('reviewer')).staffId);
    }
    const first = await operator('GET', '/staff?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.staff.map((s: { staffId: string }) => s.staffId)).toEqual([made[2], made[1]]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await operator(
      'GET',
      `/staff?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.body.staff[0].staffId).toBe(made[0]);
    const bad = await operator('GET', '/staff?cursor=nonsense');
    expect([bad.status, bad.body.errorIds]).toEqual([400, ['invalidRequest']]);
  });
});

describe('the console session', () => {
  it('signs in: 201 with the csrfToken, an HttpOnly SameSite=Strict Secure cookie; only a hash is stored', async () => {
    const { email, password, staffId } = await member('reviewer', 'Rita Reviewer');
    const res = await signIn(email.toUpperCase(), password);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      staffId,
      name: 'Rita Reviewer',
      role: 'reviewer',
      csrfToken: expect.any(String),
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(
      /^eligo_staff=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/,
    );
    const id = setCookie.slice('eligo_staff='.length, setCookie.indexOf(';'));
    const rows = await db.withSchema(schema).table('staff_sessions').where({ staff_id: staffId });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(id);
    expect(rows[0].expires_at.getTime()).toBe(clock + settings.sessionLifetimeMs);

    const cookie = setCookie.split(';')[0]!;
    const current = await send('GET', '/console/session', { cookie });
    expect([current.status, current.body]).toEqual([200, res.body]);
    expect((await send('GET', '/console/session')).status).toBe(401);
    expect((await send('GET', '/console/session', { cookie: 'eligo_staff=' + 'A'.repeat(43) })).status).toBe(
      401,
    );
  });

  it('answers every failure with one 401: unknown email, wrong password, locked, disabled', async () => {
    const { email, password, staffId } = await member('reviewer');
    const answers = [
      await signIn('nobody@example.com', password),
      await signIn(email, `${password}x`),
      await signIn(email, ''),
    ];
    await operator('PATCH', `/staff/${staffId}`, { disabled: true });
    answers.push(await signIn(email, password));
    for (const res of answers) {
      expect([res.status, res.body]).toEqual([
        401,
        { errorIds: ['invalidCredentials'], systemErrorMessage: BAD_CREDENTIALS },
      ]);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('takes as long for an unknown email as for a wrong password (a dummy hash is checked)', async () => {
    const { email } = await member('reviewer');
    const time = async (who: string) => {
      const started = process.hrtime.bigint();
      expect((await signIn(who, 'a wrong password!')).status).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    // Wrong passwords on the known account, fewer than lock it: 2 each, alternating.
    for (let i = 0; i < 2; i += 1) {
      known.push(await time(email));
      unknown.push(await time(`nobody${i}@example.com`));
    }
    const [k, u] = [median(known), median(unknown)];
    expect(u).toBeGreaterThan(k * 0.5);
    expect(u).toBeLessThan(k * 2);
  });

  it('refuses what is not a JSON sign-in', async () => {
    const form = await send('POST', '/console/session', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a&password=b',
    });
    expect([form.status, form.body.errorIds]).toEqual([415, ['invalidRequest']]);
    const missing = await send('POST', '/console/session', { body: { email: 'a@b.c' } });
    expect([missing.status, missing.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'body.password is required' },
    ]);
    const put = await send('PUT', '/console/session', { body: {} });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST, DELETE']);
  });

  it('signs out with the csrfToken only: 204, the cookie cleared, the session gone', async () => {
    const { email, password } = await member('reviewer');
    const s = await session(email, password);
    const refused = await send('DELETE', '/console/session', { cookie: s.cookie });
    expect([refused.status, refused.body.errorIds]).toEqual([403, ['invalidRequest']]);
    expect((await asStaff(s, 'GET', '/reviews')).status).toBe(200);
    const out = await send('DELETE', '/console/session', { cookie: s.cookie, csrf: s.csrf });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe(
      'eligo_staff=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
    );
    expect((await asStaff(s, 'GET', '/reviews')).status).toBe(401);
    expect((await send('GET', '/console/session', { cookie: s.cookie })).status).toBe(401);
    // Again, or without any session: still 204, the cookie cleared.
    expect((await send('DELETE', '/console/session', { cookie: s.cookie })).status).toBe(204);
  });

  it('ends after 30 idle minutes, each request pushing the end on, and 12 hours after sign-in at most', async () => {
    const { email, password } = await member('reviewer');
    const s = await session(email, password);
    for (let i = 0; i < 3; i += 1) {
      clock += 29 * MINUTE;
      expect((await asStaff(s, 'GET', '/reviews')).status).toBe(200);
    }
    clock += 30 * MINUTE;
    expect((await asStaff(s, 'GET', '/reviews')).status).toBe(401);

    const long = await session(email, password);
    const signedInAt = clock;
    while (clock + 25 * MINUTE < signedInAt + settings.sessionLifetimeMs) {
      clock += 25 * MINUTE;
      expect((await asStaff(long, 'GET', '/reviews')).status).toBe(200);
    }
    clock = signedInAt + settings.sessionLifetimeMs;
    expect((await asStaff(long, 'GET', '/reviews')).status).toBe(401);
    // Ended sessions are swept (the gateway's staff-session-purge job).
    expect(await access.purgeSessions(1000)).toBe(false);
    const ended = await db
      .withSchema(schema)
      .table('staff_sessions')
      .where('expires_at', '<=', new Date(clock))
      .orWhere('idle_expires_at', '<=', new Date(clock));
    expect(ended).toEqual([]);
  });
});

describe('the admin API with a staff session', () => {
  it('lets a reviewer decide a review as staff:<staffId>, with the csrfToken only', async () => {
    const { email, password } = await member('reviewer');
    const s = await session(email, password);
    decisions.length = 0;
    const noCsrf = await asStaff(s, 'POST', `/reviews/${reviewId}/decision`, { decision: 'approve' }, null);
    expect([noCsrf.status, noCsrf.body.errorIds]).toEqual([403, ['invalidRequest']]);
    expect(noCsrf.body.systemErrorMessage).toMatch(/X-CSRF-Token/);
    const wrong = await asStaff(
      s,
      'POST',
      `/reviews/${reviewId}/decision`,
      { decision: 'approve' },
      `${s.csrf}x`,
    );
    expect(wrong.status).toBe(403);
    expect(decisions).toEqual([]);

    const decided = await asStaff(s, 'POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
    expect(decided.status).toBe(200);
    expect(decided.body.decidedBy).toBe(`staff:${s.staffId}`);
    expect(decisions.map((d) => d.decidedBy)).toEqual([`staff:${s.staffId}`]);
    // A safe method needs no CSRF token.
    expect((await asStaff(s, 'GET', '/reviews', undefined, null)).status).toBe(200);
  });

  it('refuses a role what it may not call (403 insufficientRole), before looking at ids or bodies', async () => {
    const { email, password } = await member('reviewer');
    const s = await session(email, password);
    accountCalls = 0;
    const account = await asStaff(s, 'POST', '/accounts', { name: 'Acme' });
    expect([account.status, account.body]).toEqual([
      403,
      {
        errorIds: ['insufficientRole'],
        systemErrorMessage: 'The staff role reviewer may not call adminCreateAccount',
      },
    ]);
    expect(accountCalls).toBe(0);
    for (const [method, path] of [
      ['GET', '/staff'],
      ['GET', '/staff/not-an-id'],
      ['GET', '/audit'],
      ['GET', '/pii-access'],
      ['POST', '/staff'],
    ] as const)
      expect([
        method,
        path,
        (await asStaff(s, method, path, method === 'POST' ? {} : undefined)).status,
      ]).toEqual([method, path, 403]);
  });

  it('applies a new role at the next request, and lets an admin manage staff', async () => {
    const { email, password, staffId } = await member('reviewer');
    const s = await session(email, password);
    expect((await asStaff(s, 'GET', '/staff')).status).toBe(403);
    expect((await operator('PATCH', `/staff/${staffId}`, { role: 'admin' })).body.role).toBe('admin');
    expect((await asStaff(s, 'GET', '/staff')).status).toBe(200);
    const made = await asStaff(s, 'POST', '/staff', {
      email: `made.${staffId}@example.com`,
      name: 'M',
      role: 'reviewer',
    });
    expect(made.status).toBe(201);
  });

  it('ends the sessions of a member who is disabled, and refuses their sign-in until enabled', async () => {
    const { email, password, staffId } = await member('support');
    const s = await session(email, password);
    const disabled = await operator('PATCH', `/staff/${staffId}`, { disabled: true });
    expect(disabled.body).toMatchObject({ disabled: true, disabledAt: clock });
    expect((await asStaff(s, 'GET', '/reviews')).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await operator('PATCH', `/staff/${staffId}`, { disabled: false })).body.disabled).toBe(false);
    expect((await signIn(email, password)).status).toBe(201);
  });

  it('keeps the operator token as it was: the header wins over a cookie, and a wrong one is 401', async () => {
    const { email, password } = await member('admin');
    const s = await session(email, password);
    const both = await send('GET', '/rest/admin/v1/staff', {
      cookie: s.cookie,
      token: 'not-the-operator-token',
    });
    expect([both.status, both.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect((await send('GET', '/rest/admin/v1/staff', { token: TEST_OPERATOR_TOKEN })).status).toBe(200);
  });
});

describe('lockout', () => {
  it('locks after 5 wrong passwords in a row for 15 minutes: the right one is refused the same way meanwhile', async () => {
    const { email, password, staffId } = await member('reviewer');
    const early = await session(email, password);
    for (let i = 0; i < 4; i += 1) expect((await signIn(email, 'wrong password!!')).status).toBe(401);
    // A success in between starts the count again.
    expect((await signIn(email, password)).status).toBe(201);
    for (let i = 0; i < 5; i += 1) expect((await signIn(email, 'wrong password!!')).status).toBe(401);
    const locked = await signIn(email, password);
    expect([locked.status, locked.body]).toEqual([
      401,
      { errorIds: ['invalidCredentials'], systemErrorMessage: BAD_CREDENTIALS },
    ]);
    expect((await operator('GET', `/staff/${staffId}`)).body.lockedUntil).toBe(clock + 15 * MINUTE);
    // Sessions opened before the lock go on (the lock is about guessing, not about the member).
    expect((await asStaff(early, 'GET', '/reviews')).status).toBe(200);
    clock += 15 * MINUTE - 1;
    expect((await signIn(email, password)).status).toBe(401);
    clock += 1;
    expect((await signIn(email, password)).status).toBe(201);
    expect((await operator('GET', `/staff/${staffId}`)).body.lockedUntil).toBeNull();
  });

  it('is lifted by a password reset, which also ends the sessions and retires the old password', async () => {
    const { email, password, staffId } = await member('reviewer');
    const s = await session(email, password);
    for (let i = 0; i < 5; i += 1) await signIn(email, 'wrong password!!');
    const reset = await operator('POST', `/staff/${staffId}/password`);
    expect(reset.status).toBe(200);
    expect(reset.headers.get('cache-control')).toBe('no-store');
    expect(reset.body).toMatchObject({
      staffId,
      lockedUntil: null,
      password: expect.stringMatching(/^.{24}$/),
    });
    expect((await asStaff(s, 'GET', '/reviews')).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, reset.body.password)).status).toBe(201);
  });
});

describe('the audit log', () => {
  it('records who did what to which ids with the status, never a body or an email', async () => {
    clock += 1000;
    const from = new Date(clock).toISOString();
    const { email, password, staffId } = await member('reviewer');
    const s = await session(email, password);
    await signIn(email, 'wrong password!!');
    await signIn('nobody.at.all@example.com', 'wrong password!!');
    await asStaff(s, 'POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
    await asStaff(s, 'POST', '/accounts', { name: 'Acme' });
    await asStaff(s, 'POST', `/reviews/${reviewId}/decision`, { decision: 'approve' }, null);
    await send('DELETE', '/console/session', { cookie: s.cookie, csrf: s.csrf });
    // A read is not an action.
    await operator('GET', '/staff');

    const res = await operator('GET', `/audit?from=${encodeURIComponent(from)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const picked = res.body.entries
      .map((e: Record<string, unknown>) => [
        e.actorKind,
        e.actorId,
        e.action,
        e.method,
        e.route,
        e.targets,
        e.status,
      ])
      .reverse();
    expect(picked).toEqual([
      ['operator', null, 'adminCreateStaff', 'POST', '/rest/admin/v1/staff', { staffId }, 201],
      ['staff', staffId, 'createConsoleSession', 'POST', '/console/session', {}, 201],
      ['staff', staffId, 'createConsoleSession', 'POST', '/console/session', {}, 401],
      ['staff', null, 'createConsoleSession', 'POST', '/console/session', {}, 401],
      [
        'staff',
        staffId,
        'adminDecideReview',
        'POST',
        '/rest/admin/v1/reviews/{reviewId}/decision',
        { reviewId },
        200,
      ],
      ['staff', staffId, 'adminCreateAccount', 'POST', '/rest/admin/v1/accounts', {}, 403],
      [
        'staff',
        staffId,
        'adminDecideReview',
        'POST',
        '/rest/admin/v1/reviews/{reviewId}/decision',
        { reviewId },
        403,
      ],
      ['staff', staffId, 'deleteConsoleSession', 'DELETE', '/console/session', {}, 204],
    ]);
    for (const entry of res.body.entries) expect(entry.at).toMatch(/^2025-.*Z$/);
    const table = JSON.stringify(await db.withSchema(schema).table('staff_audit'));
    expect(table).not.toMatch(/example\.com|Example|wrong password|approve/);

    const mine = await operator('GET', `/audit?actor=${staffId}&action=adminDecideReview`);
    expect(mine.body.entries.map((e: { status: number }) => e.status)).toEqual([403, 200]);
    const operatorOnly = await operator('GET', `/audit?actor=operator&from=${encodeURIComponent(from)}`);
    expect(operatorOnly.body.entries.map((e: { action: string }) => e.action)).toEqual(['adminCreateStaff']);
    const none = await operator('GET', `/audit?to=${encodeURIComponent(from)}&action=deleteConsoleSession`);
    expect(none.body.entries.every((e: { at: string }) => e.at < from)).toBe(true);
    expect((await operator('GET', '/audit?from=2025-02-30T00:00:00Z')).status).toBe(400);
  });

  it('pages newest first, and exports everything oldest first as NDJSON', async () => {
    const page1 = await operator('GET', '/audit?limit=3');
    expect(page1.body.entries).toHaveLength(3);
    const page2 = await operator('GET', `/audit?limit=3&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    const ids = [...page1.body.entries, ...page2.body.entries].map((e: { id: string }) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(6);
    expect((await operator('GET', '/audit?cursor=abc')).status).toBe(400);

    const exported = await operator('GET', '/audit/export?action=createConsoleSession');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = String(exported.body)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((e) => e.action === 'createConsoleSession')).toBe(true);
    expect(lines.map((e) => Number(e.id))).toEqual(lines.map((e) => Number(e.id)).sort((a, b) => a - b));
    const all = await db
      .withSchema(schema)
      .table('staff_audit')
      .where({ action: 'createConsoleSession' })
      .count();
    expect(lines).toHaveLength(Number((all[0] as { count: string }).count));
  });
});

describe('the sign-in limit', () => {
  it('refuses more sign-ins from one address than the limit a minute (429, Retry-After), others go on', async () => {
    const limited = await startTestRestApp({
      documents,
      publicBaseUrl: 'http://localhost:8080',
      trustProxy: ['loopback'],
      authenticator: authenticator(2),
    });
    try {
      const { email, password } = await member('reviewer');
      const from = (ip: string) =>
        send(
          'POST',
          '/console/session',
          { body: { email, password }, headers: { 'x-forwarded-for': ip } },
          limited.origin,
        );
      const first = await from('203.0.113.9');
      expect(first.status).toBe(201);
      // Over http the cookie cannot be Secure, or the browser would never send it back.
      expect(first.headers.get('set-cookie')).not.toContain('Secure');
      expect((await from('203.0.113.9')).status).toBe(201);
      const third = await from('203.0.113.9');
      expect([third.status, third.body.errorIds]).toEqual([429, ['tooManyRequests']]);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await from('203.0.113.10')).status).toBe(201);
    } finally {
      limited.close();
    }
  });
});
