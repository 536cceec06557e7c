import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePythonTools, freePort, waitFor, type ServiceUnderTest } from '@eligo/local-infra';
import { Webhook } from 'standardwebhooks';
import { startAllInProcess } from '../support/in-process';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy';
import {
  importUniversity,
  janeDoe,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';

// The example webhook receivers of examples/webhook-receiver (the primary integration: verify the signature,
// answer 2xx, then GET details with the token), each run as its README says, as a child process, against
// Eligo (`--target all` on the suite's Postgres and Kafka). The receivers reach Eligo through a recording
// proxy, so the test sees for itself which details calls they made, with which token, and what they got.

const examples = join(__dirname, '..', '..', 'examples', 'webhook-receiver');

let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let proxy: RecordingProxy;
let python: string;
let workDir: string;

beforeAll(async () => {
  [eligo, { python }] = await Promise.all([
    startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'none', ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8' }),
    ensurePythonTools(),
  ]);
  api = programsApi(eligo);
  flow = verificationApi(api);
  proxy = await startRecordingProxy(eligo.httpUrl);
  workDir = mkdtempSync(join(tmpdir(), 'eligo-receivers-'));
}, 180_000);
afterAll(async () => {
  await proxy?.stop();
  await eligo?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** A receiver started as `node receiver.mjs` / `python receiver.py` in its directory, with its JSON log lines. */
interface Receiver {
  url: string;
  lines: () => { event: string; [key: string]: unknown }[];
  stdout: () => string;
  records: () => Record<string, unknown>[];
  stop(): Promise<void>;
}

async function startReceiver(
  command: string,
  dir: string,
  script: string,
  port: number,
  env: Record<string, string>,
): Promise<Receiver> {
  const recordFile = join(workDir, `${dir}-${port}.jsonl`);
  const child: ChildProcess = spawn(command, [script], {
    cwd: join(examples, dir),
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: String(port),
      RECEIVER_RECORD_FILE: recordFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = () =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { event: string });
  await waitFor(
    `the ${dir} receiver to listen`,
    () => {
      if (child.exitCode !== null) throw new Error(`the ${dir} receiver exited:\n${stdout}${stderr}`);
      return lines().find((l) => l.event === 'listening');
    },
    20_000,
  );
  return {
    url: `http://127.0.0.1:${port}/webhooks/eligo`,
    lines,
    stdout: () => stdout,
    records: () =>
      existsSync(recordFile)
        ? readFileSync(recordFile, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [],
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** POSTs a body to the receiver with the given headers, as a forger (or a replayer) would. */
async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await res.text();
  return res.status;
}

function signed(secret: string, body: string, webhookId: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  };
}

const receivers = [
  { name: 'Node', dir: 'node', script: 'receiver.mjs', command: () => process.execPath },
  { name: 'Python', dir: 'python', script: 'receiver.py', command: () => python },
];

describe.each(receivers)('the $name example receiver', ({ dir, script, command }) => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.stop();
    receiver = undefined;
  });

  it('refuses unsigned and forged requests, then verifies Eligo’s webhook, answers and reads details with the token', async () => {
    const rewardCode = `WELCOME-${dir.toUpperCase()}-${randomBytes(3).toString('hex')}`;
    const account = await api.createAccount(`Receiver ${dir}`);
    const token = await api.createToken(account.accountId);
    const { programId } = await api.createProgram(account.accountId, { offerType: 'staticCode', rewardCode });
    // The receiver needs the secret to start, and the webhook needs the receiver's URL: its port comes first.
    const port = await freePort();
    const created = await api.v2('POST', `/program/${programId}/webhook`, {
      token: token.token,
      body: { callbackUri: `http://127.0.0.1:${port}/webhooks/eligo` },
    });
    expect(`${created.status} ${JSON.stringify(created.body)}`).toMatch(/^200 /);
    const secret = created.body.webhook.signingSecret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    receiver = await startReceiver(command(), dir, script, port, {
      ELIGO_BASE_URL: proxy.url,
      ELIGO_TOKEN: token.token,
      ELIGO_WEBHOOK_SECRET: secret,
    });

    const organization = await importUniversity(api, programId, `Receiver ${dir} University`);
    const { verificationId } = await flow.started(programId);
    const detailsCalls = () => proxy.calls.filter((c) => c.path.includes(verificationId));

    // Requests naming the real verification that Eligo did not sign: each must be refused and read nothing.
    const body = JSON.stringify({ verificationId });
    const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const forged = {
      'no signature headers': { body, headers: {} },
      'signed with another secret': { body, headers: signed(otherSecret, body, 'msg_forged1') },
      'a body other than the one signed': {
        body,
        headers: signed(
          secret,
          JSON.stringify({ verificationId: '0123456789abcdef01234567' }),
          'msg_forged2',
        ),
      },
      'a signature ten minutes old (a replay)': {
        body,
        headers: signed(secret, body, 'msg_forged3', new Date(Date.now() - 10 * 60_000)),
      },
    };
    for (const [what, request] of Object.entries(forged)) {
      const status = await post(receiver.url, request.body, request.headers);
      expect([what, status >= 200 && status < 300]).toEqual([what, false]);
    }
    // The log lines come on another stream than the answers: waited for.
    await waitFor('a refusal logged for each', () =>
      receiver!.lines().filter((l) => l.event === 'refused').length === Object.keys(forged).length
        ? true
        : undefined,
    );

    // The real thing: a success, notified by Eligo.
    const done = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
      ...janeDoe,
      organization,
    });
    expect(done.body).toMatchObject({ currentStep: 'success', rewardCode });
    const [record] = await waitFor('the receiver to handle the webhook', () => {
      const got = receiver!.records();
      return got.length > 0 ? got : undefined;
    });
    expect(record).toEqual({
      webhookId: expect.stringMatching(/^msg_/),
      verificationId,
      notifierEventType: 'SUCCESS',
      currentStep: 'success',
      rewardCode,
    });
    // Exactly one details call, with the account's token, answered with the reward code; none for the forgeries.
    expect(detailsCalls()).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: `/rest/v2/verification/${verificationId}/details`,
        authorization: `Bearer ${token.token}`,
        status: 200,
      }),
    ]);
    expect(JSON.parse(detailsCalls()[0]!.body).lastResponse.rewardCode).toBe(rewardCode);
    // Eligo saw the 2xx: the delivery is done.
    const log = await api.admin('GET', `/programs/${programId}/webhook/deliveries`);
    const [delivery] = log.body.deliveries as { webhookId: string; status: string; attempts: unknown[] }[];
    expect(delivery).toMatchObject({ webhookId: record!.webhookId, status: 'DELIVERED' });
    expect(delivery!.attempts).toEqual([expect.objectContaining({ statusCode: 204 })]);

    // The same delivery again (as a retry would carry it: same webhook-id, fresh timestamp): answered 2xx, not
    // handled twice.
    expect(await post(receiver.url, body, signed(secret, body, delivery!.webhookId))).toBeLessThan(300);
    await waitFor('the duplicate to be noticed', () =>
      receiver!.lines().find((l) => l.event === 'duplicate' && l.webhookId === delivery!.webhookId),
    );
    expect(detailsCalls()).toHaveLength(1);
    expect(receiver.records()).toHaveLength(1);

    // The log has ids and outcomes, never the person's data nor the reward code.
    expect(receiver.lines().find((l) => l.event === 'handled')).toEqual({
      event: 'handled',
      webhookId: delivery!.webhookId,
      verificationId,
      notifierEventType: 'SUCCESS',
      currentStep: 'success',
      hasRewardCode: true,
    });
    for (const secretValue of [janeDoe.email, janeDoe.lastName, rewardCode, token.token, secret])
      expect(receiver.stdout()).not.toContain(secretValue);
  });
});
