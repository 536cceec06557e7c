import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor, type ServiceUnderTest } from '@eligo/local-infra';
import { Webhook } from 'standardwebhooks';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi, type Reply } from '../support/programs-api';
import { staffConsole } from '../support/staff';
import {
  importUniversity,
  janeDoe,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';

// The staff console's verification tools (issue 21) through the gateway, against the real services
// (`--target all` on the suite's Postgres and Kafka): the search by tracking id, by email (its keyed hash, in
// any case and spacing) and by program, paged by cursor; expiring a verification; and resending a failed
// webhook delivery to a receiver that now answers. What a reviewer session may call, too, and that the
// search (a POST only to keep the email out of URLs) stays out of the audit log while the expiry is in it.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let receiver: FlakyReceiver;
/** Values of this run only: the suite's database may hold verifications of earlier runs and other suites. */
const run = randomBytes(4).toString('hex');

/**
 * A webhook receiver on 127.0.0.1 that answers 500 until healed, then 200, or nothing at all once told to hang
 * (the attempt then waits for the notifier's timeout); it keeps every request.
 */
interface FlakyReceiver {
  callbackUri: string;
  received: { headers: IncomingHttpHeaders; body: string; answer: number }[];
  heal(): void;
  hang(): void;
  close(): void;
}

async function startFlakyReceiver(): Promise<FlakyReceiver> {
  let mode: 'refuse' | 'accept' | 'hang' = 'refuse';
  const received: FlakyReceiver['received'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const answer = { refuse: 500, accept: 200, hang: 0 }[mode];
      received.push({ headers: req.headers, body, answer });
      if (answer !== 0) res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    callbackUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    heal: () => (mode = 'accept'),
    hang: () => (mode = 'hang'),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

beforeAll(async () => {
  receiver = await startFlakyReceiver();
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    // Three quick attempts: a refusing receiver makes a FAILED delivery within a second.
    ELIGO_WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms',
    // A receiver told to hang keeps a resend PENDING this long.
    ELIGO_WEBHOOK_TIMEOUT_MS: '3000',
  });
  api = programsApi(eligo);
  flow = verificationApi(api);
}, 180_000);
afterAll(async () => {
  await eligo?.stop();
  receiver?.close();
});

const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

async function search(body: Record<string, unknown>): Promise<Reply> {
  return api.admin('POST', '/verifications/search', { body });
}
const idsOf = (reply: Reply) =>
  (reply.body.verifications as { verificationId: string }[]).map((v) => v.verificationId);

async function newProgram(
  settings: Record<string, unknown> = {},
): Promise<{ accountId: string; programId: string }> {
  const { accountId } = await api.createAccount(`Search ${run}`);
  const { programId } = await api.createProgram(accountId, settings);
  return { accountId, programId };
}

describe('the verification search', () => {
  it('finds a tracking id across programs, newest first, with each summary', async () => {
    const first = await newProgram();
    const second = await newProgram();
    const trackingId = `order-${run}`;
    const older = await flow.started(first.programId, trackingId);
    const newer = await flow.started(second.programId, trackingId);
    await flow.started(first.programId, `other-${run}`);

    const found = await search({ trackingId });
    expectStatus(found, 200);
    expect(found.headers.get('cache-control')).toBe('no-store');
    expect(idsOf(found)).toEqual([newer.verificationId, older.verificationId]);
    expect(found.body.nextCursor).toBeNull();
    expect(found.body.verifications[1]).toEqual({
      verificationId: older.verificationId,
      programId: first.programId,
      accountId: first.accountId,
      segment: 'student',
      currentStep: 'collectStudentPersonalInfo',
      testMode: true,
      created: expect.any(Number),
      updated: expect.any(Number),
      trackingId,
    });
    const inOne = await search({ trackingId, programId: first.programId });
    expect(idsOf(inOne)).toEqual([older.verificationId]);
  });

  it('finds a person by email in any case and spacing, never by a verification without personal info', async () => {
    const { programId } = await newProgram();
    const organization = await importUniversity(api, programId, `Search University ${run}`);
    const email = `Ann.${run}@Example.com`;
    const submitted = await flow.submitToProgram(programId, 'Student', { ...janeDoe, email, organization });
    expectStatus(submitted, 200);
    expect(submitted.body.currentStep).toBe('success');
    await flow.started(programId);

    const found = await search({ email: `  ANN.${run}@example.COM ` });
    expectStatus(found, 200);
    expect(idsOf(found)).toEqual([submitted.body.verificationId]);
    expect(idsOf(await search({ email: `someone.${run}@example.com` }))).toEqual([]);
  });

  it('pages through a program newest first, each verification once', async () => {
    const { programId } = await newProgram();
    const started: string[] = [];
    for (let i = 0; i < 5; i++) started.push((await flow.started(programId)).verificationId);

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await search({ programId, limit: 2, ...(cursor ? { cursor } : {}) });
      expectStatus(page, 200);
      seen.push(...idsOf(page));
      sizes.push(page.body.verifications.length);
      cursor = page.body.nextCursor;
    } while (cursor !== null && sizes.length < 10);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual([...started].reverse());
  });

  it.each([
    ['no filter', {}],
    ['only paging', { limit: 5 }],
    ['a malformed program id', { programId: 'nope' }],
    ['a cursor it did not give', { programId: unknownId, cursor: 'forged' }],
  ])('answers %s 400 invalidRequest', async (_what, body) => {
    const res = await search(body);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
  });

  it('takes no filters in a URL: the GET with a query string is gone', async () => {
    const res = await api.admin('GET', `/verifications?trackingId=order-${run}`);
    expect(res.status).toBe(404);
  });
});

describe('expiring a verification', () => {
  it('ends an ongoing one as its time would, then answers 409 for it', async () => {
    const { programId } = await newProgram();
    const { verificationId } = await flow.started(programId);
    const expired = await api.admin('POST', `/verifications/${verificationId}/expire`);
    expectStatus(expired, 200);
    expect(expired.body).toMatchObject({ verificationId, currentStep: 'error' });
    expect(expired.body.steps.at(-1)).toMatchObject({
      step: 'error',
      trigger: 'expire',
      errorIds: ['expiredVerification'],
    });
    expect((await flow.get(verificationId)).body).toMatchObject({
      currentStep: 'error',
      errorIds: ['expiredVerification'],
    });

    const again = await api.admin('POST', `/verifications/${verificationId}/expire`);
    expect([again.status, again.body.errorIds]).toEqual([409, ['invalidStep']]);
    const unknown = await api.admin('POST', `/verifications/${unknownId}/expire`);
    expect([unknown.status, unknown.body.errorIds]).toEqual([404, ['noVerification']]);
  });
});

describe('resending a webhook delivery', () => {
  it('sends a failed delivery again once the receiver answers, signed, as a new delivery', async () => {
    const { programId, secret } = await programWithWebhook();
    const organization = await importUniversity(api, programId, `Resend University ${run}`);
    const done = await flow.submitToProgram(programId, 'Student', { ...janeDoe, organization });
    expect(done.body.currentStep).toBe('success');
    const verificationId = done.body.verificationId as string;
    const log = `/programs/${programId}/webhook/deliveries?verificationId=${verificationId}`;

    const failed = await waitFor('the delivery to fail', async () => {
      const page = await api.admin('GET', log);
      return page.body.deliveries[0]?.status === 'FAILED' ? page.body.deliveries[0] : undefined;
    });
    expect(failed.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500]);

    receiver.heal();
    const resent = await api.admin(
      'POST',
      `/programs/${programId}/webhook/deliveries/${failed.webhookId}/resend`,
    );
    expectStatus(resent, 202);
    expect(resent.body).toMatchObject({
      verificationId,
      status: 'PENDING',
      refireOf: failed.webhookId,
      attempts: [],
    });

    const delivered = await waitFor('the resent delivery', () =>
      receiver.received.find((r) => r.answer === 200 && r.headers['webhook-id'] === resent.body.webhookId),
    );
    expect(JSON.parse(delivered.body)).toEqual({ verificationId });
    expect(new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>)).toEqual({
      verificationId,
    });
    const after = await waitFor('the log to show it delivered', async () => {
      const page = await api.admin('GET', log);
      return page.body.deliveries[0]?.status === 'DELIVERED' ? page.body : undefined;
    });
    expect(
      after.deliveries.map((d: { webhookId: string; status: string }) => [d.webhookId, d.status]),
    ).toEqual([
      [resent.body.webhookId, 'DELIVERED'],
      [failed.webhookId, 'FAILED'],
    ]);

    // Sent again while pending: 409; an unknown delivery: 404.
    receiver.hang();
    const pending = await api.admin(
      'POST',
      `/programs/${programId}/webhook/deliveries/${failed.webhookId}/resend`,
    );
    expectStatus(pending, 202);
    const twice = await api.admin(
      'POST',
      `/programs/${programId}/webhook/deliveries/${failed.webhookId}/resend`,
    );
    expect([twice.status, twice.body.errorIds]).toEqual([409, ['deliveryPending']]);
    const unknown = await api.admin(
      'POST',
      `/programs/${programId}/webhook/deliveries/msg_${unknownId}/resend`,
    );
    expect(unknown.status).toBe(404);
  });
});

describe('staff sessions', () => {
  async function signedIn(role: string) {
    const staff = staffConsole(api, eligo.httpUrl);
    const member = await staff.member(role, `${role}.search.${run}@example.com`);
    const session = (method: string, path: string, body?: unknown) => staff.as(member, method, path, body);
    return { staffId: member.staffId, session };
  }

  it('let a reviewer search but not expire, and support expire; only the expiries are audited', async () => {
    const { programId } = await newProgram();
    const { verificationId } = await flow.started(programId);
    const reviewer = await signedIn('reviewer');
    const found = await reviewer.session('POST', '/verifications/search', {
      programId,
      email: `Someone.${run}@Example.com`,
    });
    expectStatus(found, 200);
    expect(idsOf(found)).toEqual([]);
    const byProgram = await reviewer.session('POST', '/verifications/search', { programId });
    expect(idsOf(byProgram)).toEqual([verificationId]);
    const refused = await reviewer.session('POST', `/verifications/${verificationId}/expire`);
    expect([refused.status, refused.body.errorIds]).toEqual([403, ['insufficientRole']]);

    const support = await signedIn('support');
    expectStatus(await support.session('POST', `/verifications/${verificationId}/expire`), 200);

    // The audit log records changes (and attempts at them), not the searches, nor their filters.
    const actions = async (actor: string) => {
      const page = await api.admin('GET', `/audit?actor=${actor}`);
      expectStatus(page, 200);
      expect(JSON.stringify(page.body)).not.toMatch(/example\.com/i);
      return (page.body.entries as { action: string; status: number }[]).map((e) => [e.action, e.status]);
    };
    expect(await actions(reviewer.staffId)).toEqual([
      ['adminExpireVerification', 403],
      ['createConsoleSession', 201],
    ]);
    expect(await actions(support.staffId)).toEqual([
      ['adminExpireVerification', 200],
      ['createConsoleSession', 201],
    ]);
  });
});

/** A program whose webhook (made over REST v2, which shows its signing secret once) calls the receiver. */
async function programWithWebhook(): Promise<{ programId: string; secret: string }> {
  const { accountId, programId } = await newProgram();
  const token = await api.createToken(accountId);
  const res = await api.v2('POST', `/program/${programId}/webhook`, {
    token: token.token,
    body: { callbackUri: receiver.callbackUri },
  });
  expectStatus(res, 200);
  return { programId, secret: res.body.webhook.signingSecret as string };
}
