import { waitFor } from '@eligo/local-infra';
import { programsV1 } from '@eligo/proto';
import { createClient } from '@eligo/runtime';
import {
  freePort,
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { programsApi } from '../support/programs-api';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

// OpenTelemetry across a split deployment (docs/operations.md, "Tracing"): one verification's trace runs from
// the gateway's REST request over gRPC into verification and programs, through the outbox and Kafka to the
// notifier's consumer, and on to the webhook it delivers; exported over OTLP/HTTP to a receiver of the test.
const token = `eligo_admin_${'traces'.repeat(5)}`;
// One process per module the trace must show; the rest share one.
const processes = [
  ['gateway'],
  ['programs'],
  ['verification'],
  ['notifier'],
  ['documents', 'organizations', 'reports'],
];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
let otlp: OtlpReceiver;
let hooks: WebhookReceiver;
const procs: EligoProcess[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
  otlp = await startOtlpReceiver();
  hooks = await startWebhookReceiver();
  const ports = await Promise.all(processes.map(() => freePort()));
  const addresses: Record<string, string> = {};
  processes.forEach((modules, i) => {
    for (const m of modules) addresses[`ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`] = `127.0.0.1:${ports[i]}`;
  });
  const env = {
    ...realServersEnv(db.url),
    ...addresses,
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: token,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  // Services first (the gateway's readiness needs them), in the order of who calls whom.
  for (const [i, modules] of processes.entries()) {
    if (modules[0] === 'gateway') continue;
    const proc = await startEligo(['start', '--target', modules.join(',')], {
      ...env,
      ELIGO_GRPC_PORT: String(ports[i]),
    });
    procs.push(proc);
  }
  await Promise.all(procs.map((p) => waitReady(p, 60_000)));
  const gateway = await startEligo(['start', '--target', 'gateway'], {
    ...env,
    ELIGO_GRPC_PORT: String(ports[0]),
  });
  procs.unshift(gateway);
  await waitReady(gateway, 60_000);
}, 180_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  otlp?.close();
  hooks?.close();
  await db?.drop();
  data?.remove();
});

const inTrace = (traceId: string) => otlp.spans.filter((s) => s.traceId === traceId);
const describeSpan = (s: ReceivedSpan) => `${s.service}: ${s.name}`;

it('one verification is one trace: gateway, verification, programs and notifier, to the webhook', async () => {
  const gateway = procs[0]!;
  const api = programsApi({ httpUrl: gateway.httpUrl, adminToken: token });
  const account = await api.createAccount('Traces Co');
  const issued = await api.createToken(account.accountId);
  const { programId } = await api.createProgram(account.accountId, {
    offerType: 'staticCode',
    rewardCode: 'TRACE',
  });
  const hook = await api.v2('POST', `/program/${programId}/webhook`, {
    token: issued.token,
    body: { callbackUri: hooks.callbackUri },
  });
  expect(hook.status).toBe(200);
  const organization = await importUniversity(api, programId, 'Trace University');
  const flow = verificationApi(api);
  const { verificationId } = await flow.started(programId);
  const requestId = `trace-test-${Date.now()}`;
  const done = await flow.submit(
    verificationId,
    'collectStudentPersonalInfo',
    { ...janeDoe, organization },
    { headers: { 'x-request-id': requestId } },
  );
  expect([done.status, done.body.currentStep]).toEqual([200, 'success']);

  // The submission's server span: named by its route template, tagged with the request id it answered.
  const root = await waitFor('the gateway span of the submission', () =>
    otlp.spans.find((s) => s.service === 'eligo-gateway' && s.attributes['eligo.request_id'] === requestId),
  );
  expect(root.name).toBe('POST /rest/v2/verification/{verificationId}/step/collectStudentPersonalInfo');
  expect(root.kind).toBe(2); // SERVER
  expect(root.parentSpanId).toBe('');

  // The webhook the success made carries the same trace to the receiver.
  const webhook = await waitFor('the success webhook', () =>
    hooks.received.find(
      (r) => (JSON.parse(r.body) as { verificationId: string }).verificationId === verificationId,
    ),
  );
  expect(String(webhook.headers.traceparent)).toMatch(new RegExp(`^00-${root.traceId}-[0-9a-f]{16}-0[01]$`));

  const expected = [
    `eligo-gateway: ${root.name}`,
    'eligo-gateway: grpc.eligo.verification.v1.VerificationService/SubmitPersonalInfo',
    'eligo-verification: grpc.eligo.verification.v1.VerificationService/SubmitPersonalInfo',
    'eligo-verification: grpc.eligo.organizations.v1.OrganizationsService/CheckEligibility',
    'eligo-documents+organizations+reports: grpc.eligo.organizations.v1.OrganizationsService/CheckEligibility',
    'eligo-notifier: process eligo.verification.v1.VerificationSucceeded',
    'eligo-notifier: webhook delivery',
    'eligo-notifier: grpc.eligo.programs.v1.ProgramsService/GetWebhookDelivery',
    'eligo-programs: grpc.eligo.programs.v1.ProgramsService/GetWebhookDelivery',
  ];
  const spans = await waitFor(
    'spans of every hop in the trace',
    () => {
      const names = new Set(inTrace(root.traceId).map(describeSpan));
      return expected.every((e) => names.has(e)) ? inTrace(root.traceId) : undefined;
    },
    30_000,
  ).catch((err: Error) => {
    throw new Error(
      `${err.message}; got:\n${[...new Set(inTrace(root.traceId).map(describeSpan))].sort().join('\n')}`,
    );
  });
  expect(new Set(spans.map((s) => s.service))).toEqual(
    new Set([
      'eligo-gateway',
      'eligo-verification',
      'eligo-programs',
      'eligo-notifier',
      'eligo-documents+organizations+reports',
    ]),
  );
  // Every span hangs from another of the same trace: the context crossed each hop rather than starting anew.
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans)
    if (s !== root)
      expect(`${describeSpan(s)} parent ${ids.has(s.parentSpanId)}`).toBe(`${describeSpan(s)} parent true`);
  // Database statements of the services are in it, as statements (no bound values).
  const statements = spans.filter(
    (s) => s.service === 'eligo-verification' && s.name.startsWith('pg.query:'),
  );
  expect(statements.length).toBeGreaterThan(0);

  // Nothing personal and no id-bearing path leaves in a span: the person's data, the verification id in the
  // URL, the receiver's path.
  const exported = JSON.stringify(otlp.spans);
  for (const secret of [janeDoe.email, janeDoe.lastName, verificationId, '/hooks/eligo', issued.token])
    expect(`${secret}: ${exported.includes(secret)}`).toBe(`${secret}: false`);
  expect(otlp.refused).toEqual([]);

  // Log lines written inside the request name its trace.
  const accessLine = gateway
    .output()
    .split('\n')
    .find((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'));
  expect(accessLine).toContain(`"traceId":"${root.traceId}"`);
}, 90_000);

it('exports nothing when the SDK is disabled, even with an endpoint set', async () => {
  const off = await startEligo(['start', '--target', 'programs'], {
    ...realServersEnv(db.url),
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: token,
    OTEL_SDK_DISABLED: 'true',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_SERVICE_NAME: 'eligo-untraced',
  });
  procs.push(off);
  await waitReady(off, 60_000);
  // A traced process would export a server span of this call within the schedule delay.
  const client = createClient(programsV1.ProgramsServiceClient, `127.0.0.1:${off.grpcPort}`, {
    breaker: false,
    retry: { maxAttempts: 1 },
  });
  expect((await client.unary('getInfo', {})).buildInfo?.module).toBe('programs');
  client.close();
  await new Promise((r) => setTimeout(r, 1000));
  expect(await off.stop('SIGTERM')).toBe(0);
  expect(otlp.spans.filter((s) => s.service === 'eligo-untraced')).toEqual([]);
  expect(off.output()).not.toContain('traceId');
}, 90_000);
