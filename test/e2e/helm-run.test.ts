import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { waitFor } from '@eligo/local-infra';
import { Webhook } from 'standardwebhooks';
import {
  allocatePorts,
  byKind,
  hookOrder,
  planContainer,
  probeOnce,
  rewriteServiceAddresses,
  scratchDir,
  serviceTargets,
  type ContainerProcess,
} from '../support/chart-processes';
import { readImageProcess } from '../support/dockerfile';
import { documentsApi, sampleFiles } from '../support/documents-api';
import { freshDatabase, startEligo, type EligoProcess } from '../support/eligo-process';
import {
  examplesDir,
  parseManifests,
  removeScratch,
  renderChart,
  type Manifest,
} from '../support/helm-chart';
import { programsApi } from '../support/programs-api';
import { reportsApi, utcDay } from '../support/reports-api';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

// Issue 20, "proven by running it": the split example rendered with values pointing at the suite's Postgres,
// Kafka and MinIO; the migration Jobs' containers run first, then every Deployment's container as a local process
// with exactly the rendered command, arguments, environment (ConfigMap, Secret, secretKeyRef) and Secret files,
// each Service name mapped to its local port. A REST smoke through the gateway then crosses every module. The
// all-in-one example runs the same way (its Jobs, then its one Deployment) on a database of its own.
const need = (k: string): string => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set (the jest global setup provides it)`);
  return v;
};
const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
const suffix = randomBytes(4).toString('hex');
const publicBase = 'https://eligo.example.com'; // the split example's config.publicBaseUrl
// An SMTP server nobody listens at: the smoke sends no mail, the notifier only has to accept the setting at start.
const smtpUrl = `smtp://eligo:helm-smtp-${suffix}@127.0.0.1:2525`;
const image = readImageProcess();

let db: Awaited<ReturnType<typeof freshDatabase>>;
const otherDbs: Awaited<ReturnType<typeof freshDatabase>>[] = [];
let scratch: ReturnType<typeof scratchDir>;
let manifests: Manifest[];
let gatewayUrl: string;
const procs: EligoProcess[] = [];
let receiver: WebhookReceiver;

/**
 * The chart's values for one run (`run` keeps its Kafka groups and bucket apart from the other run's): everything
 * through --set-string on top of an example. The internal token only where the mode needs it (split).
 */
function values(databaseUrl: string, run: 'split' | 'all' = 'split'): Record<string, string> {
  const secret = (name: string, value: string) => ({
    [`secrets.${name}.value`]: value,
    [`secrets.${name}.existingSecret`]: '',
  });
  const set: Record<string, string> = {
    'image.tag': 'local',
    'config.kafka.brokers': need('ELIGO_TEST_KAFKA_BROKERS'),
    'config.kafka.groupPrefix': `e2e-${suffix}-${run}.`,
    'config.s3.endpoint': need('ELIGO_TEST_S3_ENDPOINT'),
    'config.s3.bucket': `e2e-${suffix}-${run}`,
    'config.extra.ELIGO_KAFKA_CLIENT_ID': `e2e-helm-${suffix}-${run}`,
    // Webhooks to the local receiver (loopback is refused by default).
    'config.extra.ELIGO_WEBHOOK_ALLOW_CIDRS': '127.0.0.0/8',
    'config.extra.ELIGO_ORGANIZATIONS_SEED': 'none',
    // A new projection would otherwise replay every earlier suite's events from the shared broker.
    'config.extra.ELIGO_REPORTS_PROJECTION_START': 'latest',
    'config.extra.ELIGO_REPORTS_POLL_MS': '100',
    ...secret('databaseUrl', databaseUrl),
    ...secret('encryptionKey', randomBytes(32).toString('base64')),
    ...secret('adminToken', adminToken),
    ...(run === 'split' ? secret('internalToken', randomBytes(32).toString('base64')) : {}),
    ...secret('s3AccessKey', need('ELIGO_TEST_S3_ACCESS_KEY')),
    ...secret('s3SecretKey', need('ELIGO_TEST_S3_SECRET_KEY')),
    ...secret('smtpUrl', smtpUrl),
    'config.smtpFrom': 'Eligo Helm <helm@example.com>',
  };
  // --set-string splits on commas: escape them (and backslashes) so a value arrives whole.
  return Object.fromEntries(Object.entries(set).map(([k, v]) => [k, v.replace(/[\\,]/g, '\\$&')]));
}

async function start(plan: ContainerProcess): Promise<EligoProcess> {
  const proc = await startEligo(plan.args, plan.env, plan.script, [], { cwd: plan.cwd, defaults: false });
  procs.push(proc);
  return proc;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  db = await freshDatabase();
  scratch = scratchDir();
  manifests = parseManifests(await renderChart([join(examplesDir, 'split.yaml')], values(db.url)));
}, 180_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  receiver?.close();
  await db?.drop();
  await Promise.all(otherDbs.map((d) => d.drop()));
  scratch?.remove();
  removeScratch();
});

it('maps every *_GRPC_ADDRESS onto a rendered Service, and fails naming one that names none', () => {
  const targets = serviceTargets(manifests);
  const config = byKind(manifests, 'ConfigMap')[0]!.data!;
  const addresses = Object.keys(config).filter((k) => k.endsWith('_GRPC_ADDRESS'));
  expect(addresses).toHaveLength(7);
  const mapped = rewriteServiceAddresses(config, targets, () => 4242, 'ConfigMap');
  for (const k of addresses) expect(mapped[k]).toBe('127.0.0.1:4242');
  expect(() =>
    rewriteServiceAddresses(
      { ELIGO_PROGRAMS_GRPC_ADDRESS: 'r1-program:9090' },
      targets,
      () => 4242,
      'Deployment r1-gateway',
    ),
  ).toThrow(/Deployment r1-gateway: ELIGO_PROGRAMS_GRPC_ADDRESS=r1-program:9090 names no Service port/);
  // A Service whose selector picks no pod, or whose targetPort no container declares, is a wiring fault too.
  const orphan = manifests.map((m) =>
    m.kind === 'Service' && m.metadata.name === 'r1-notifier'
      ? {
          ...m,
          spec: { ...m.spec, selector: { ...m.spec.selector, 'app.kubernetes.io/component': 'notify' } },
        }
      : m,
  );
  expect(() => serviceTargets(orphan)).toThrow(/Service r1-notifier selects 0 Deployments/);
  const wrongPort = manifests.map((m) =>
    m.kind === 'Service' && m.metadata.name === 'r1-programs'
      ? { ...m, spec: { ...m.spec, ports: [{ name: 'grpc', port: 9090, targetPort: 'rpc' }] } }
      : m,
  );
  expect(() => serviceTargets(wrongPort)).toThrow(/r1-programs port 9090 targets rpc, which no container/);
});

it('runs the migration Jobs, starts every Deployment, and serves a verification, an upload and a report', async () => {
  const began = Date.now();
  const targets = serviceTargets(manifests);
  const localPorts = await allocatePorts(manifests);
  const options = { manifests, image, scratch: scratch.dir };

  // Helm's pre-install hooks: every module's migration, one after the other, each to exit 0.
  const jobs = hookOrder(byKind(manifests, 'Job'));
  expect(jobs.map((j) => j.metadata.name).sort()).toEqual(
    ['documents', 'gateway', 'notifier', 'organizations', 'programs', 'reports', 'verification'].map(
      (m) => `r1-migrate-${m}`,
    ),
  );
  for (const job of jobs) {
    const migrate = await start(planContainer(job, options, targets, localPorts));
    const code = await migrate.exited;
    if (code !== 0) throw new Error(`${job.metadata.name} exited ${code}:\n${migrate.output()}`);
  }

  // Every Deployment as a process, then each must pass its own readinessProbe (HTTP /readyz or gRPC health).
  const deployments = byKind(manifests, 'Deployment');
  expect(deployments).toHaveLength(7);
  const running = await Promise.all(
    deployments.map(async (d) => {
      const plan = planContainer(d, options, targets, localPorts);
      return { d, plan, proc: await start(plan) };
    }),
  );
  // The SMTP URL (a secretKeyRef) reaches the notifier's process alone, the sender every process.
  expect(
    Object.fromEntries(running.map(({ d, plan }) => [d.metadata.name, plan.env.ELIGO_SMTP_URL])),
  ).toEqual(
    Object.fromEntries(
      deployments.map((d) => [d.metadata.name, d.metadata.name === 'r1-notifier' ? smtpUrl : undefined]),
    ),
  );
  for (const { plan } of running) expect(plan.env.ELIGO_SMTP_FROM).toBe('Eligo Helm <helm@example.com>');
  let failed = false;
  await Promise.all(
    running.map(({ d, plan, proc }) =>
      waitFor(
        `${d.metadata.name} ready by its readinessProbe`,
        async () => {
          if (failed) throw new Error('another process failed first');
          if (proc.child.exitCode !== null || proc.child.signalCode !== null)
            throw new Error(`${d.metadata.name} exited (${proc.child.exitCode ?? proc.child.signalCode})`);
          return (await probeOnce(plan, d.spec.template.spec.containers[0].ports)) ? true : undefined;
        },
        90_000,
      ).catch((err: Error) => {
        failed = true;
        throw new Error(`${err.message}:\n${proc.output()}`);
      }),
    ),
  );
  const gateway = running.find(({ d }) => d.metadata.name === 'r1-gateway')!;
  gatewayUrl = gateway.proc.httpUrl;
  const ready = Date.now();

  // The gateway reaches every module over the rewritten Service addresses, with the mounted internal token.
  const api = programsApi({ httpUrl: gatewayUrl, adminToken });
  const backend = ['documents', 'notifier', 'organizations', 'programs', 'reports', 'verification'].join();
  // Up to 60 s: processes start together, so the gateway's first calls may find a module still starting and
  // open its breaker for a reset period (10 s) before a probe closes it; a loaded CI machine took over 30 s.
  let seen = '';
  await waitFor(
    'every module SERVING at the gateway',
    async () => {
      const info = await api.v2('GET', '/info', { token: adminToken });
      const modules = info.status === 200 ? (info.body.modules as { module: string; status: string }[]) : [];
      seen = `${info.status} ${JSON.stringify(modules.map((m) => `${m.module}:${m.status}`))}`;
      const serving = modules.filter((m) => m.status === 'SERVING').map((m) => m.module);
      return serving.sort().join() === backend ? true : undefined;
    },
    60_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last /info: ${seen}`);
  });

  // A verification to success, its webhook signed and delivered to the local receiver by the notifier.
  const account = await api.createAccount(`Helm Run ${suffix}`);
  const token = await api.createToken(account.accountId);
  const reporter = await api.createToken(account.accountId, 'reporter', ['REPORTER']);
  const { programId } = await api.createProgram(account.accountId, {
    offerType: 'staticCode',
    rewardCode: 'HELM',
  });
  const hook = await api.v2('POST', `/program/${programId}/webhook`, {
    token: token.token,
    body: { callbackUri: receiver.callbackUri },
  });
  expect(`${hook.status} ${JSON.stringify(hook.body)}`).toMatch(/^200 /);
  const organization = await importUniversity(api, programId, `Helm University ${suffix}`);
  const flow = verificationApi(api);
  const { verificationId } = await flow.started(programId, 'helm-1');
  const done = await flow.submit(verificationId, 'collectStudentPersonalInfo', { ...janeDoe, organization });
  expect([done.status, done.body.currentStep, done.body.rewardCode]).toEqual([200, 'success', 'HELM']);
  const delivered = await waitFor('the success webhook', () =>
    receiver.received.find((r) => r.body.includes(verificationId)),
  );
  expect(
    new Webhook(hook.body.webhook.signingSecret).verify(
      delivered.body,
      delivered.headers as Record<string, string>,
    ),
  ).toEqual({ verificationId });

  // A document upload (documents to MinIO) that test mode accepts by its file name.
  const docs = documentsApi(api, (url) => url.replace(publicBase, gatewayUrl));
  const started = await flow.started(programId, 'helm-2');
  const toDocs = await flow.submit(started.verificationId, 'collectStudentPersonalInfo', {
    ...janeDoe,
    firstName: 'REJECTED',
    organization,
  });
  expect([toDocs.status, toDocs.body.currentStep]).toEqual([200, 'docUpload']);
  const upload = await docs.multipart(toDocs.body.submissionUrl, [
    { name: 'ACCEPTED-card.png', type: 'image/png', bytes: sampleFiles.png },
  ]);
  expect(`${upload.status} ${JSON.stringify(upload.body)}`).toMatch(/^200 /);
  await waitFor('the upload accepted', async () =>
    (await flow.get(started.verificationId)).body?.currentStep === 'success' ? true : undefined,
  );

  // A report (reports reads the verifications from Kafka, writes the CSV to MinIO) listing both.
  const reports = reportsApi({ httpUrl: gatewayUrl }, api);
  const report = await reports.reportUntil(
    reporter.token,
    { startDate: utcDay(-1), endDate: utcDay(1), verificationModeInclusion: 'ALL' },
    (rows) =>
      [verificationId, started.verificationId].every((id) =>
        rows.some((r) => r.verificationId === id && r.currentStep === 'success'),
      ),
    'both verifications in a report',
  );
  expect(report.rows.map((r) => r.verificationId).sort()).toEqual(
    [verificationId, started.verificationId].sort(),
  );

  // SIGTERM, as the kubelet stops a pod: each process drains and exits 0.
  const codes = await Promise.all(running.map(({ proc }) => proc.stop('SIGTERM')));
  expect(Object.fromEntries(running.map(({ d }, i) => [d.metadata.name, codes[i]]))).toEqual(
    Object.fromEntries(deployments.map((d) => [d.metadata.name, 0])),
  );
  console.log(`helm-run: migrations + start ${ready - began} ms, smoke and stop ${Date.now() - ready} ms`);
}, 300_000);

it("runs mode all: the all-in-one example's migration Jobs and its one Deployment, then a verification", async () => {
  const began = Date.now();
  const allDb = await freshDatabase();
  otherDbs.push(allDb);
  const ms = parseManifests(
    await renderChart([join(examplesDir, 'all-in-one.yaml')], values(allDb.url, 'all')),
  );
  const targets = serviceTargets(ms);
  const localPorts = await allocatePorts(ms);
  const options = { manifests: ms, image, scratch: scratch.dir };

  // Mode all migrates every module, each in its own hook Job, one after the other as Helm runs them.
  const jobs = hookOrder(byKind(ms, 'Job'));
  expect(jobs).toHaveLength(7);
  for (const job of jobs) {
    const migrate = await start(planContainer(job, options, targets, localPorts));
    const code = await migrate.exited;
    if (code !== 0) throw new Error(`${job.metadata.name} exited ${code}:\n${migrate.output()}`);
  }

  const deployments = byKind(ms, 'Deployment');
  expect(deployments.map((d) => d.metadata.name)).toEqual(['r1-all']);
  const d = deployments[0]!;
  const plan = planContainer(d, options, targets, localPorts);
  expect(plan.args).toEqual(['start', '--target', 'all']);
  // No internal token: mode all serves gRPC on loopback only, and the chart mounts none.
  expect(plan.env.ELIGO_INTERNAL_TOKEN_FILE).toBeUndefined();
  // The one process runs the notifier: it takes the SMTP URL.
  expect(plan.env.ELIGO_SMTP_URL).toBe(smtpUrl);
  const proc = await start(plan);
  await waitFor(
    'r1-all ready by its readinessProbe',
    async () => {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null)
        throw new Error(`r1-all exited (${proc.child.exitCode ?? proc.child.signalCode}):\n${proc.output()}`);
      return (await probeOnce(plan, d.spec.template.spec.containers[0].ports)) ? true : undefined;
    },
    30_000,
  );
  const ready = Date.now();

  // A test-mode verification to success through REST v2, as in the README's quickstart.
  const api = programsApi({ httpUrl: proc.httpUrl, adminToken });
  const account = await api.createAccount(`Helm All ${suffix}`);
  const { programId } = await api.createProgram(account.accountId, {
    offerType: 'staticCode',
    rewardCode: 'HELM-ALL',
  });
  const organization = await importUniversity(api, programId, `Helm All University ${suffix}`);
  const flow = verificationApi(api);
  const { verificationId } = await flow.started(programId, 'helm-all-1');
  const done = await flow.submit(verificationId, 'collectStudentPersonalInfo', { ...janeDoe, organization });
  expect([done.status, done.body.currentStep, done.body.rewardCode]).toEqual([200, 'success', 'HELM-ALL']);

  expect(await proc.stop('SIGTERM')).toBe(0);
  console.log(
    `helm-run (all): migrations + start ${ready - began} ms, smoke and stop ${Date.now() - ready} ms`,
  );
}, 60_000);
