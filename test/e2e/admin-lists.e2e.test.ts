import { randomBytes } from 'node:crypto';
import { waitFor, type ServiceUnderTest } from '@eligo/local-infra';
import { Webhook } from 'standardwebhooks';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi, type Reply } from '../support/programs-api';
import { staffConsole } from '../support/staff';
import { verificationApi } from '../support/verification-api';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

// The staff console's lists and reads of accounts, tokens and programs (issue 21) through the gateway, against
// the real programs service (`--target all` on the suite's Postgres and Kafka): paging by cursor over several
// pages with the filters, the service's refusals as REST statuses, the level of a reward-code pool, the
// rotation of a webhook's signing secret (the next delivery is signed with the new one), and what a support
// staff session may and may not call.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let receiver: WebhookReceiver;
/** Names of this run only: the suite's database may hold accounts of earlier runs and other suites. */
const run = randomBytes(4).toString('hex');

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  });
  api = programsApi(eligo);
}, 180_000);
afterAll(async () => {
  await eligo?.stop();
  receiver?.close();
});

const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

/** Every page of a list, following nextCursor; the pages' sizes too. */
async function allPages(
  path: string,
  items: string,
): Promise<{ rows: Record<string, unknown>[]; sizes: number[] }> {
  const rows: Record<string, unknown>[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await api.admin(
      'GET',
      cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path,
    );
    expectStatus(page, 200);
    rows.push(...page.body[items]);
    sizes.push(page.body[items].length);
    cursor = page.body.nextCursor;
  } while (cursor !== null && sizes.length < 20);
  return { rows, sizes };
}

describe('accounts and tokens', () => {
  it('pages the accounts by name, newest first, with their live tokens and programs counted', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i += 1) ids.push((await api.createAccount(`Lists ${run} ${i}`)).accountId);
    const busy = ids[0]!;
    const kept = await api.createToken(busy, 'kept');
    const revoked = await api.createToken(busy, 'revoked', ['PII']);
    await api.revokeToken(busy, revoked.tokenId);
    await api.createProgram(busy);

    const { rows, sizes } = await allPages(
      `/accounts?name=${encodeURIComponent(`lists ${run}`)}&limit=2`,
      'accounts',
    );
    expect(sizes).toEqual([2, 2, 1]);
    expect(rows.map((a) => a.accountId)).toEqual([...ids].reverse());
    expect(rows.at(-1)).toEqual({
      accountId: busy,
      name: `Lists ${run} 1`,
      created: expect.any(Number),
      tokenCount: 1,
      programCount: 1,
    });
    expect(await api.admin('GET', `/accounts/${busy}`)).toMatchObject({ status: 200, body: rows.at(-1) });

    const tokens = await api.admin('GET', `/accounts/${busy}/tokens`);
    expectStatus(tokens, 200);
    expect(tokens.body).toEqual({
      tokens: [
        {
          tokenId: revoked.tokenId,
          accountId: busy,
          name: 'revoked',
          roles: ['PII'],
          created: expect.any(Number),
          revoked: expect.any(Number),
        },
        {
          tokenId: kept.tokenId,
          accountId: busy,
          name: 'kept',
          roles: [],
          created: expect.any(Number),
          revoked: null,
        },
      ],
      nextCursor: null,
    });
    expect(JSON.stringify(tokens.body)).not.toContain(kept.token);
    const first = await api.admin('GET', `/accounts/${busy}/tokens?limit=1`);
    expect(first.body.tokens).toHaveLength(1);
    const second = await api.admin('GET', `/accounts/${busy}/tokens?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ tokens: [tokens.body.tokens[1]], nextCursor: null });
  });

  it('refuses a cursor the list did not give (400 invalidRequest) and answers unknown accounts 404', async () => {
    const forged = await api.admin('GET', '/accounts?cursor=not-a-cursor');
    expectStatus(forged, 400);
    expect(forged.body.errorIds).toEqual(['invalidRequest']);
    expectStatus(await api.admin('GET', '/accounts?limit=101'), 400);
    for (const path of [
      `/accounts/${unknownId}`,
      `/accounts/${unknownId}/tokens`,
      '/accounts/NOT-AN-ID',
      `/programs?accountId=${unknownId}`,
    ])
      expect([path, (await api.admin('GET', path)).status]).toEqual([path, 404]);
  });
});

describe('programs', () => {
  it('pages the programs of an account and filters them by segment, mode and name', async () => {
    const { accountId } = await api.createAccount(`Programs ${run}`);
    const spring = await api.createProgram(accountId, { name: 'Spring students' });
    const heroes = await api.createProgram(accountId, { name: 'Heroes', segment: 'military', mode: 'live' });
    const summer = await api.createProgram(accountId, { name: 'Summer students', mode: 'live' });

    const { rows, sizes } = await allPages(`/programs?accountId=${accountId}&limit=1`, 'programs');
    expect(sizes).toEqual([1, 1, 1]);
    expect(rows.map((p) => p.programId)).toEqual([summer.programId, heroes.programId, spring.programId]);
    expect(rows[1]).toEqual({
      programId: heroes.programId,
      accountId,
      name: 'Heroes',
      segment: 'military',
      mode: 'live',
      offerType: 'noCode',
      created: heroes.created,
      updated: heroes.updated,
    });

    const ids = async (query: string) =>
      (await api.admin('GET', `/programs?accountId=${accountId}&${query}`)).body.programs.map(
        (p: { programId: string }) => p.programId,
      );
    expect(await ids('segment=student')).toEqual([summer.programId, spring.programId]);
    expect(await ids('mode=live')).toEqual([summer.programId, heroes.programId]);
    expect(await ids('mode=test')).toEqual([spring.programId]);
    expect(await ids('name=STUDENTS&mode=live')).toEqual([summer.programId]);
    expect(await ids('segment=teacher')).toEqual([]);
    expectStatus(await api.admin('GET', '/programs?segment=pirate'), 400);
    expectStatus(await api.admin('GET', '/programs?cursor=forged'), 400);
  });

  it('tells the level of a reward-code pool as codes are added', async () => {
    const { accountId } = await api.createAccount(`Pool ${run}`);
    const { programId } = await api.createProgram(accountId, { offerType: 'rewardPool' });
    const level = () => api.admin('GET', `/programs/${programId}/rewardCodes/level`);
    expect((await level()).body).toEqual({
      pooled: true,
      total: 0,
      unused: 0,
      claimed: 0,
      low: true,
      lowThreshold: 1,
    });
    const codes = Array.from({ length: 30 }, (_, i) => `POOL-${run}-${i}`);
    expectStatus(await api.admin('POST', `/programs/${programId}/rewardCodes`, { body: { codes } }), 200);
    expect(await level()).toMatchObject({
      status: 200,
      body: { pooled: true, total: 30, unused: 30, claimed: 0, low: false, lowThreshold: 3 },
    });

    const noCode = await api.createProgram(accountId);
    expect((await api.admin('GET', `/programs/${noCode.programId}/rewardCodes/level`)).body).toMatchObject({
      pooled: false,
      total: 0,
      lowThreshold: 0,
    });
    const unknown = await api.admin('GET', `/programs/${unknownId}/rewardCodes/level`);
    expect([unknown.status, unknown.body.errorIds]).toEqual([404, ['noProgram']]);
  });

  it('rotates the webhook signing secret: the next delivery is signed with the new one; 409 without a webhook', async () => {
    const { accountId } = await api.createAccount(`Secrets ${run}`);
    const bare = await api.createProgram(accountId);
    const refused = await api.admin('POST', `/programs/${bare.programId}/webhook/secret`);
    expect([refused.status, refused.body.errorIds]).toEqual([409, ['noWebhook']]);

    const hooked = await api.createProgram(accountId, {
      webhook: { callbackUri: receiver.callbackUri, notifierEventTypes: ['EXPIRATION'] },
    });
    const oldSecret = hooked.webhook.signingSecret as string;
    const rotated = await api.admin('POST', `/programs/${hooked.programId}/webhook/secret`);
    expectStatus(rotated, 200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body).toEqual({
      programId: hooked.programId,
      webhookSecret: expect.stringMatching(/^whsec_/),
    });
    expect(rotated.body.webhookSecret).not.toBe(oldSecret);
    // The program still has its webhook, without the secret.
    expect((await api.admin('GET', `/programs/${hooked.programId}`)).body.webhook).toEqual({
      callbackUri: receiver.callbackUri,
      notifierEventTypes: ['EXPIRATION'],
      created: hooked.webhook.created,
    });

    const flow = verificationApi(api);
    const { verificationId } = await flow.started(hooked.programId);
    expectStatus(await flow.expire(verificationId), 200);
    const note = await waitFor('the expiration webhook', () =>
      receiver.received.find(
        (r) => (JSON.parse(r.body) as { verificationId: string }).verificationId === verificationId,
      ),
    );
    const headers = note.headers as Record<string, string>;
    expect(new Webhook(rotated.body.webhookSecret).verify(note.body, headers)).toEqual({
      verificationId,
      notifierEventType: 'EXPIRATION',
    });
    expect(() => new Webhook(oldSecret).verify(note.body, headers)).toThrow();
  });
});

describe('a support staff session', () => {
  async function signedIn(role: string) {
    const staff = staffConsole(api, eligo.httpUrl);
    const session = await staff.member(role, `${role}.${run}@example.com`);
    return (method: string, path: string) => staff.as(session, method, path);
  }

  it('reads accounts, programs and pool levels, and is refused tokens and the secret rotation (403)', async () => {
    const { accountId } = await api.createAccount(`Support ${run}`);
    const { programId } = await api.createProgram(accountId, {
      webhook: { callbackUri: receiver.callbackUri },
    });
    const support = await signedIn('support');
    expectStatus(await support('GET', `/accounts?name=${encodeURIComponent(`support ${run}`)}`), 200);
    expectStatus(await support('GET', `/accounts/${accountId}`), 200);
    expectStatus(await support('GET', `/programs?accountId=${accountId}`), 200);
    expectStatus(await support('GET', `/programs/${programId}/rewardCodes/level`), 200);
    for (const [method, path] of [
      ['GET', `/accounts/${accountId}/tokens`],
      ['POST', `/programs/${programId}/webhook/secret`],
    ] as const) {
      const res = await support(method, path);
      expect([method, path, res.status, res.body.errorIds]).toEqual([
        method,
        path,
        403,
        ['insufficientRole'],
      ]);
    }

    const reviewer = await signedIn('reviewer');
    const refused = await reviewer('GET', '/accounts');
    expect([refused.status, refused.body.errorIds]).toEqual([403, ['insufficientRole']]);
  });
});
