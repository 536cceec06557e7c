import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceUnderTest } from '@eligo/local-infra';
import { Webhook } from 'standardwebhooks';
import { startAllInProcess } from '../support/in-process';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { verificationApi, type VerificationApi } from '../support/verification-api';

// Issue 22, the HTTP instant-match source end to end through the gateway (`--target all` on the suite's
// Postgres and Kafka): a live member program configured over the admin API with the business's endpoint (a
// real local server that checks Eligo's Standard Webhooks signature and signs its answer). Its yes is an
// instant success whose details name HTTP_SOURCE; a hung endpoint sends the person to docUpload well within
// the spec's 11 s.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let server: http.Server;
let url: string;
let answer: 'yes' | 'hang' = 'yes';
const hung: http.ServerResponse[] = [];
const secret = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const signer = new Webhook(secret);
const requests: { verified: boolean; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        signer.verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      requests.push({ verified, body });
      if (answer === 'hang') return void hung.push(res);
      const id = String(req.headers['webhook-id']);
      const text = JSON.stringify({ eligible: verified });
      const now = new Date();
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signer.sign(id, now, text),
        })
        .end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eligible`;
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  });
  api = programsApi(eligo);
  flow = verificationApi(api);
}, 180_000);
afterAll(async () => {
  await eligo?.stop();
  for (const res of hung) res.destroy();
  server?.closeAllConnections();
  server?.close();
});

async function liveMemberProgram() {
  const account = await api.createAccount('Sources Co');
  const token = await api.createToken(account.accountId);
  const program = await api.createProgram(account.accountId, {
    segment: 'member',
    mode: 'live',
    offerType: 'staticCode',
    rewardCode: 'MEMBER10',
    instantMatch: { sources: [{ type: 'http' }], http: { url, secret } },
  });
  const orgs = organizationsApi(api);
  const name = `Sources Club ${program.programId}`;
  const imported = await orgs.importCsv([
    { externalId: `e2e-sources-${program.programId}`, name, type: 'MEMBERSHIP', country: 'US', domains: [] },
  ]);
  expect(imported.status).toBe(200);
  const organization = { id: await orgs.idOf(program.programId, name), name };
  const member = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', organization };
  return { token: token.token as string, program, member };
}

it('configures the source over the admin API without ever answering its secret', async () => {
  const { program } = await liveMemberProgram();
  expect(program.instantMatch).toEqual({
    sources: [{ type: 'http', subSegments: [] }],
    http: { url },
    emailLoop: false,
  });
  const read = await api.admin('GET', `/programs/${program.programId}`);
  expect(read.status).toBe(200);
  expect(JSON.stringify(read.body)).not.toContain(secret.slice('whsec_'.length));
  const bad = await api.admin('PATCH', `/programs/${program.programId}`, {
    body: { instantMatch: { sources: [{ type: 'http' }], http: { url: 'http://10.0.0.1/x', secret } } },
  });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain('instantMatch.http.url');
});

it('succeeds instantly on the signed yes, the details naming HTTP_SOURCE', async () => {
  answer = 'yes';
  const { token, program, member } = await liveMemberProgram();
  const { verificationId } = await flow.started(program.programId);
  const done = await flow.submit(verificationId, 'collectMemberPersonalInfo', member);
  expect([done.status, done.body.currentStep, done.body.rewardCode]).toEqual([200, 'success', 'MEMBER10']);
  expect(requests.at(-1)!.verified).toBe(true);
  const details = await flow.details(verificationId, token);
  expect([details.status, details.body.verificationMethod]).toEqual([200, 'HTTP_SOURCE']);
  expect(details.body.lastResponse.instantMatchAttempts).toBe(1);
});

it('sends the person to docUpload within 11 s when the endpoint hangs', async () => {
  answer = 'hang';
  const { program, member } = await liveMemberProgram();
  const { verificationId } = await flow.started(program.programId);
  const t0 = Date.now();
  const done = await flow.submit(verificationId, 'collectMemberPersonalInfo', member);
  const ms = Date.now() - t0;
  expect([done.status, done.body.currentStep]).toEqual([200, 'docUpload']);
  expect(ms).toBeLessThan(11_000);
});

it("succeeds instantly when the person is on the program's eligibility list, the details naming LIST", async () => {
  const { token, program, member } = await liveMemberProgram();
  // The list first, then the HTTP source (which would say yes too): the list decides, the endpoint is not asked.
  const configured = await api.admin('PATCH', `/programs/${program.programId}`, {
    body: { instantMatch: { sources: [{ type: 'list' }, { type: 'http' }], http: { url, secret } } },
  });
  expect(configured.status).toBe(200);
  const listed = await api.admin('PUT', `/programs/${program.programId}/eligibility-list`, {
    raw: 'email\n  JANE.Doe@Example.com \nsomeone.else@example.com\n',
    contentType: 'text/csv',
  });
  expect([listed.status, listed.body.rowsStored]).toEqual([200, 2]);
  answer = 'yes';
  const asked = requests.length;
  const { verificationId } = await flow.started(program.programId);
  const done = await flow.submit(verificationId, 'collectMemberPersonalInfo', member);
  expect([done.status, done.body.currentStep, done.body.rewardCode]).toEqual([200, 'success', 'MEMBER10']);
  expect(requests.length).toBe(asked);
  const details = await flow.details(verificationId, token);
  expect([details.status, details.body.verificationMethod]).toEqual([200, 'LIST']);

  // Someone not on the list: the list says no, the endpoint is asked next (two attempts).
  const other = await flow.started(program.programId);
  const second = await flow.submit(other.verificationId, 'collectMemberPersonalInfo', {
    ...member,
    email: 'not.listed@example.com',
  });
  expect(second.body.currentStep).toBe('success');
  const otherDetails = await flow.details(other.verificationId, token);
  expect([otherDetails.body.verificationMethod, otherDetails.body.lastResponse.instantMatchAttempts]).toEqual(
    ['HTTP_SOURCE', 2],
  );
});

it('matches the member number the member form gives, and sends it to the HTTP source', async () => {
  const { token, program, member } = await liveMemberProgram();
  const configured = await api.admin('PATCH', `/programs/${program.programId}`, {
    body: { instantMatch: { sources: [{ type: 'list' }, { type: 'http' }], http: { url, secret } } },
  });
  expect(configured.status).toBe(200);
  const listed = await api.admin('PUT', `/programs/${program.programId}/eligibility-list`, {
    raw: JSON.stringify({ memberId: 'M-0042' }) + '\n',
    contentType: 'application/x-ndjson',
  });
  expect([listed.status, listed.body.rowsStored]).toEqual([200, 1]);
  const unlisted = { ...member, email: 'someone.new@example.com' };

  // Case and surrounding spaces aside, the number is the list's: LIST decides, the endpoint is not asked.
  const asked = requests.length;
  const { verificationId } = await flow.started(program.programId);
  const done = await flow.submit(verificationId, 'collectMemberPersonalInfo', {
    ...unlisted,
    memberId: ' m-0042 ',
  });
  expect([done.status, done.body.currentStep]).toEqual([200, 'success']);
  expect(requests.length).toBe(asked);
  expect((await flow.details(verificationId, token)).body.verificationMethod).toBe('LIST');

  // Another number: the HTTP source is asked, with the number as given (trimmed).
  answer = 'yes';
  const other = await flow.started(program.programId);
  const second = await flow.submit(other.verificationId, 'collectMemberPersonalInfo', {
    ...unlisted,
    memberId: 'M-0043',
  });
  expect(second.body.currentStep).toBe('success');
  expect(JSON.parse(requests.at(-1)!.body).subject).toMatchObject({ memberId: 'M-0043' });

  // The number follows the client identifier's rule, and only the member and employee forms take one.
  const third = await flow.started(program.programId);
  const bad = await flow.submit(third.verificationId, 'collectMemberPersonalInfo', {
    ...unlisted,
    memberId: '',
  });
  expect([bad.status, bad.body.errorIds]).toEqual([400, ['invalidRequest']]);
  expect(bad.body.systemErrorMessage).toContain('memberId');
  const wrongForm = await flow.submit(third.verificationId, 'collectMemberPersonalInfo', {
    ...unlisted,
    employeeId: 'E-1',
  });
  expect([wrongForm.status, wrongForm.body.systemErrorMessage]).toEqual([
    400,
    expect.stringContaining("Unexpected property 'employeeId'"),
  ]);
});
