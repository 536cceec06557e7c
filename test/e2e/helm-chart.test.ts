import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Ajv2020 from 'ajv/dist/2020';
import { containerEnv, mapMountPaths, materializeVolumes } from '../support/chart-processes';
import { readImageProcess } from '../support/dockerfile';
import {
  builtinOnly,
  chartDir,
  examplesDir,
  helm,
  kubernetesValidate,
  parseManifests,
  removeScratch,
  renderChart,
  valuesFile,
  type Manifest,
} from '../support/helm-chart';

/** Every object of a render passes kubernetes-validate (strict, offline), with its complaints as the failure. */
async function expectValid(text: string): Promise<void> {
  const result = await kubernetesValidate(text);
  expect(result.stdout + result.stderr).toBe('');
  expect(result.code).toBe(0);
}

// The Helm chart (deploy/helm/eligo) rendered by the pinned Helm and validated offline against the Kubernetes
// 1.33 schemas. No cluster runs here: this proves the chart renders what is meant and what Kubernetes accepts.

const MODULES = ['gateway', 'verification', 'documents', 'organizations', 'programs', 'reports', 'notifier'];
const EXAMPLES = ['all-in-one.yaml', 'split.yaml', 'external-kafka-s3.yaml'];
// Test values only, recognisable so that the tests can tell none of them leaks into a ConfigMap.
const SECRETS = {
  'secrets.databaseUrl.value': 'postgres://eligo:pw-db-SECRET@db:5432/eligo',
  'secrets.encryptionKey.value': 'enc-key-SECRET-0123456789abcdef0123456789ab',
  'secrets.adminToken.value': 'admin-token-SECRET-0123456789',
  'secrets.internalToken.value': 'internal-token-SECRET-0123456789abcdef',
};
const TIMEOUT = 600_000; // the first run builds Helm and installs the Python tools

afterAll(removeScratch);

const ofKind = (ms: Manifest[], kind: string) => ms.filter((m) => m.kind === kind);
const container = (m: Manifest) => m.spec.template.spec.containers[0];
type EnvVar = { name: string; value?: string; valueFrom?: unknown };
const envOf = (m: Manifest) => (container(m).env ?? []) as EnvVar[];
const isHook = (m: Manifest) => m.metadata.annotations?.['helm.sh/hook'] !== undefined;

/** Each service's `export const dependsOn = [...]`, read from its source: what the chart's dependsOn must say. */
function dependsOn(module: string): string[] {
  const source = readFileSync(join(__dirname, '..', '..', 'services', module, 'src', 'index.ts'), 'utf8');
  const list = /export const dependsOn = \[([^\]]*)\]/.exec(source);
  if (!list) throw new Error(`no dependsOn in services/${module}/src/index.ts`);
  return [...list[1]!.matchAll(/'([a-z]+)'/g)].map((m) => m[1]!);
}

/** The error message of a render that must fail. */
const renderError = (files: string[], set: Record<string, string> = SECRETS) =>
  renderChart(files, set).then(
    () => 'rendered',
    (err: Error) => err.message,
  );

describe('the chart', () => {
  it(
    'passes helm lint --strict',
    async () => {
      const set = Object.entries(SECRETS).flatMap(([k, v]) => ['--set-string', `${k}=${v}`]);
      const result = await helm(['lint', '--strict', chartDir, ...set]);
      expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
      expect(result.code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'refuses to render the defaults without secrets, naming the value to set',
    async () => {
      await expect(renderChart()).rejects.toThrow(
        /secrets\.databaseUrl is required: set secrets\.databaseUrl\.value or secrets\.databaseUrl\.existingSecret/,
      );
      const noToken = Object.fromEntries(
        Object.entries(SECRETS).filter(([k]) => k !== 'secrets.internalToken.value'),
      );
      await expect(renderChart([], noToken)).rejects.toThrow(/secrets\.internalToken is required/);
      // All-in-one serves gRPC on loopback only: no internal token needed.
      await expect(renderChart([], { ...noToken, mode: 'all' })).resolves.toContain('kind: Deployment');
      await expect(
        renderChart([], { ...SECRETS, 'config.s3.endpoint': 'https://s3.example.com' }),
      ).rejects.toThrow(/secrets\.s3AccessKey is required/);
      await expect(renderChart([valuesFile('ingress:\n  enabled: true\n')], SECRETS)).rejects.toThrow(
        /ingress\.host is required with ingress\.enabled/,
      );
    },
    TIMEOUT,
  );
});

describe('default values (split), secrets given with --set', () => {
  let text: string;
  let ms: Manifest[];
  beforeAll(async () => {
    text = await renderChart([], SECRETS);
    ms = parseManifests(text);
  }, TIMEOUT);

  it(
    'passes kubernetes-validate --strict',
    async () => {
      await expectValid(text);
    },
    TIMEOUT,
  );

  it('renders a Deployment, a Service and a migration Job per module', () => {
    expect(ofKind(ms, 'Deployment').map((d) => d.metadata.name)).toEqual(MODULES.map((m) => `r1-${m}`));
    expect(ofKind(ms, 'Service').map((s) => s.metadata.name)).toEqual(MODULES.map((m) => `r1-${m}`));
    for (const m of MODULES) {
      const d = ms.find((x) => x.kind === 'Deployment' && x.metadata.name === `r1-${m}`)!;
      expect(container(d).args).toEqual(['start', '--target', m]);
      expect(container(d).image).toBe('eligo:0.1.0');
    }
    const jobs = ofKind(ms, 'Job');
    expect(jobs.map((j) => container(j).args)).toEqual(MODULES.map((m) => ['migrate', '--target', m]));
    for (const j of jobs) {
      expect(j.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      expect(j.spec.template.spec.restartPolicy).toBe('Never');
    }
  });

  it('points every module at the others through the ConfigMap, and keeps secrets out of it', () => {
    const [config] = ofKind(ms, 'ConfigMap');
    for (const m of MODULES)
      expect(config!.data![`ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`]).toBe(`r1-${m}:9090`);
    expect(config!.data!.ELIGO_SHUTDOWN_DELAY_MS).toBe('5000');
    const configText = JSON.stringify(config);
    for (const value of Object.values(SECRETS)) expect(configText).not.toContain(value);
    // The secrets live in the Secret only, and reach the containers through secretKeyRef.
    const [secret] = ofKind(ms, 'Secret').filter((s) => !s.metadata.annotations?.['helm.sh/hook']);
    const decoded = Object.values(secret!.data!).map((v) => Buffer.from(v, 'base64').toString());
    expect(decoded.sort()).toEqual(Object.values(SECRETS).sort());
    for (const d of [...ofKind(ms, 'Deployment'), ...ofKind(ms, 'Job')]) {
      const env = container(d).env as Array<{ name: string; value?: string; valueFrom?: unknown }>;
      for (const e of env) for (const value of Object.values(SECRETS)) expect(e.value ?? '').not.toBe(value);
      expect(env.find((e) => e.name === 'ELIGO_DATABASE_URL')!.valueFrom).toBeDefined();
    }
  });

  it('mounts the internal token as a file and probes gateway over HTTP, services over gRPC', () => {
    for (const d of ofKind(ms, 'Deployment')) {
      const c = container(d);
      expect(c.env).toContainEqual({
        name: 'ELIGO_INTERNAL_TOKEN_FILE',
        value: '/etc/eligo/internal-token/token',
      });
      expect(c.volumeMounts).toContainEqual({
        name: 'internal-token',
        mountPath: '/etc/eligo/internal-token',
        readOnly: true,
      });
      if (d.metadata.name === 'r1-gateway') {
        expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
        expect(c.startupProbe.httpGet).toBeDefined();
      } else {
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'])
          expect(c[probe].grpc).toEqual({ port: 9090 });
      }
    }
  });

  it('runs hardened: non-root uid 1000, read-only root, no privilege escalation, no capabilities', () => {
    for (const d of [...ofKind(ms, 'Deployment'), ...ofKind(ms, 'Job')]) {
      const pod = d.spec.template.spec;
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(container(d).securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(container(d).volumeMounts).toEqual(
        expect.arrayContaining([
          { name: 'data', mountPath: '/var/lib/eligo' },
          { name: 'tmp', mountPath: '/tmp' },
        ]),
      );
      expect(pod.automountServiceAccountToken).toBe(false);
    }
  });

  it(
    'gives SIGTERM the drain window plus the grace, plus 5 s',
    async () => {
      for (const d of ofKind(ms, 'Deployment'))
        expect(d.spec.template.spec.terminationGracePeriodSeconds).toBe(20);
      const file = valuesFile('shutdown:\n  delayMs: 30000\n  graceMs: 10000\n');
      const again = parseManifests(await renderChart([file], SECRETS));
      expect(ofKind(again, 'Deployment')[0]!.spec.template.spec.terminationGracePeriodSeconds).toBe(45);
      expect(ofKind(again, 'ConfigMap')[0]!.data!.ELIGO_SHUTDOWN_DELAY_MS).toBe('30000');
    },
    TIMEOUT,
  );
});

describe.each(EXAMPLES)('example %s', (example) => {
  let text: string;
  let ms: Manifest[];
  beforeAll(async () => {
    text = await renderChart([join(examplesDir, example)]);
    ms = parseManifests(text);
  }, TIMEOUT);

  it(
    'renders and passes kubernetes-validate --strict',
    async () => {
      expect(ms.length).toBeGreaterThan(0);
      await expectValid(builtinOnly(text));
    },
    TIMEOUT,
  );

  it(
    'passes helm lint --strict',
    async () => {
      const result = await helm(['lint', '--strict', chartDir, '-f', join(examplesDir, example)]);
      expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    },
    TIMEOUT,
  );

  it('reads every secret from existing Secrets: the chart writes none', () => {
    expect(ofKind(ms, 'Secret')).toEqual([]);
    // A migration Job per module, in both modes.
    expect(ofKind(ms, 'Job')).toHaveLength(MODULES.length);
  });

  it('renders the shape of its mode', () => {
    const deployments = ofKind(ms, 'Deployment');
    if (example === 'all-in-one.yaml') {
      expect(deployments).toHaveLength(1);
      expect(container(deployments[0]!).args).toEqual(['start', '--target', 'all']);
      expect(container(deployments[0]!).readinessProbe.httpGet.path).toBe('/readyz');
      expect(ofKind(ms, 'Service')[0]!.spec.ports).toEqual([
        { name: 'http', port: 8080, targetPort: 'http' },
      ]);
      expect(
        Object.keys(ofKind(ms, 'ConfigMap')[0]!.data!).filter((k) => k.endsWith('_GRPC_ADDRESS')),
      ).toEqual([]);
      expect(ofKind(ms, 'PodDisruptionBudget').map((p) => p.metadata.name)).toEqual(['r1-all']);
    } else {
      expect(deployments).toHaveLength(MODULES.length);
    }
    if (example === 'split.yaml') {
      const [ingress] = ofKind(ms, 'Ingress');
      expect(ingress!.spec.rules[0].http.paths[0].backend.service).toEqual({
        name: 'r1-gateway',
        port: { name: 'http' },
      });
      expect(ingress!.spec.tls).toEqual([{ hosts: ['eligo.example.com'], secretName: 'eligo-tls' }]);
      // The HPAs own the replica counts of the gateway and verification, and of nothing else.
      const hpas = ofKind(ms, 'HorizontalPodAutoscaler');
      expect(hpas.map((h) => h.spec.scaleTargetRef.name)).toEqual(['r1-gateway', 'r1-verification']);
      for (const d of deployments)
        expect(d.spec.replicas === undefined).toBe(
          ['r1-gateway', 'r1-verification'].includes(d.metadata.name),
        );
      expect(ofKind(ms, 'PodDisruptionBudget')).toHaveLength(MODULES.length);
      const [monitor] = ofKind(ms, 'ServiceMonitor');
      expect(monitor!.metadata.labels!.release).toBe('prometheus');
      expect(monitor!.spec.endpoints).toEqual([{ port: 'http', path: '/metrics', interval: '30s' }]);
      expect(monitor!.spec.namespaceSelector).toEqual({ matchNames: ['default'] });
    }
    if (example === 'external-kafka-s3.yaml') {
      const config = ofKind(ms, 'ConfigMap')[0]!.data!;
      expect(config.ELIGO_S3_ENDPOINT).toBe('https://s3.eu-west-1.amazonaws.com');
      expect(config.ELIGO_S3_PATH_STYLE).toBe('false');
      expect(config.ELIGO_KAFKA_BROKERS).toContain('b-1.kafka.example.com:9093');
      // SASL_SSL: SCRAM over TLS, the brokers' certificates checked against the cluster CA's Secret.
      expect(config).toMatchObject({
        ELIGO_KAFKA_SSL: 'true',
        ELIGO_KAFKA_SASL_MECHANISM: 'scram-sha-512',
        ELIGO_KAFKA_SASL_USERNAME: 'eligo',
        ELIGO_SMTP_FROM: 'Eligo <no-reply@eligo.example.com>',
      });
      const env = container(deployments[0]!).env as Array<{ name: string; valueFrom?: unknown }>;
      expect(env.find((e) => e.name === 'ELIGO_S3_SECRET_KEY')!.valueFrom).toEqual({
        secretKeyRef: { name: 'eligo-s3', key: 'secret-key' },
      });
      for (const d of deployments) {
        const volumes = d.spec.template.spec.volumes as Array<{ name: string; secret?: unknown }>;
        expect(volumes.find((v) => v.name === 'internal-token')!.secret).toEqual({
          secretName: 'eligo-internal',
          items: [{ key: 'tokens', path: 'token' }],
        });
        expect(volumes.find((v) => v.name === 'kafka-sasl')!.secret).toEqual({
          secretName: 'eligo-kafka-user',
          items: [{ key: 'password', path: 'password' }],
        });
        expect(volumes.find((v) => v.name === 'kafka-ca')!.secret).toEqual({
          secretName: 'kafka-cluster-ca-cert',
          items: [{ key: 'ca.crt', path: 'ca.crt' }],
        });
        // The SMTP URL, from its own Secret, reaches the notifier only.
        expect(envOf(d).find((e) => e.name === 'ELIGO_SMTP_URL')?.valueFrom).toEqual(
          d.metadata.name === 'r1-notifier'
            ? { secretKeyRef: { name: 'eligo-smtp', key: 'url' } }
            : undefined,
        );
      }
    }
  });
});

describe('NetworkPolicy (split example)', () => {
  let ms: Manifest[];
  beforeAll(async () => {
    ms = parseManifests(await renderChart([join(examplesDir, 'split.yaml')]));
  }, TIMEOUT);

  it("admits to each module's gRPC port exactly the modules that call it (their dependsOn)", () => {
    for (const module of MODULES) {
      const policy = ms.find((m) => m.kind === 'NetworkPolicy' && m.metadata.name === `r1-${module}`)!;
      const rules = policy.spec.ingress as Array<{
        ports: Array<{ port: number }>;
        from?: Array<{ podSelector?: { matchLabels: Record<string, string> } }>;
      }>;
      const grpc = rules.filter((r) => r.ports.some((p) => p.port === 9090));
      const admitted = grpc.flatMap((r) =>
        (r.from ?? []).map((f) => f.podSelector!.matchLabels['app.kubernetes.io/component']),
      );
      const callers = MODULES.filter((m) => dependsOn(m).includes(module));
      expect(admitted.sort()).toEqual(callers.sort());
      expect(grpc.every((r) => r.from && r.from.length > 0)).toBe(true);
    }
  });

  it("opens the gateway's HTTP port to anyone and the others' to the metricsFrom peers only", () => {
    const http = (module: string) =>
      (
        ms.find((m) => m.kind === 'NetworkPolicy' && m.metadata.name === `r1-${module}`)!.spec
          .ingress as Array<{
          ports: Array<{ port: number }>;
          from?: unknown[];
        }>
      ).filter((r) => r.ports.some((p) => p.port === 8080));
    expect(http('gateway')).toEqual([{ ports: [{ port: 8080, protocol: 'TCP' }] }]);
    for (const module of MODULES.filter((m) => m !== 'gateway'))
      expect(http(module)).toEqual([
        {
          ports: [{ port: 8080, protocol: 'TCP' }],
          from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        },
      ]);
  });
});

describe('values.schema.json', () => {
  it.each([
    [
      'an unknown module',
      'modules:\n  billing:\n    enabled: true\n',
      /additional properties 'billing' not allowed/,
    ],
    ['a negative replica count', 'modules:\n  gateway:\n    replicas: -1\n', /replicas.*minimum/],
    ['a non-string image tag', 'image:\n  tag: 1.2\n', /image\/tag.*want string/],
    ['an unknown mode', 'mode: both\n', /mode/],
    ['an unknown top-level key', 'replicas: 3\n', /additional properties 'replicas' not allowed/],
    ['an unknown OTLP protocol', 'tracing:\n  protocol: zipkin\n', /tracing\/protocol.*must be one of/],
    ['a sampler the SDK lacks', 'tracing:\n  sampler: xray\n', /tracing\/sampler.*must be one of/],
    ['a sampler ratio above 1', "tracing:\n  samplerArg: '1.5'\n", /tracing\/samplerArg/],
    ['an endpoint that is no URL', 'tracing:\n  endpoint: collector:4318\n', /tracing\/endpoint/],
    [
      'an externalAddress without a port',
      'modules:\n  programs:\n    externalAddress: programs.other\n',
      /modules\/programs\/externalAddress/,
    ],
    ['a ServiceAccount name with capitals', 'serviceAccount:\n  name: Eligo\n', /serviceAccount\/name/],
    [
      'a scrape timeout that is no duration',
      'serviceMonitor:\n  scrapeTimeout: 10 seconds\n',
      /scrapeTimeout/,
    ],
    [
      'an SMTP URL that is no smtp:// or smtps:// URL',
      "secrets:\n  smtpUrl:\n    value: 'http://mail.example.com'\n",
      /secrets\/smtpUrl\/value/,
    ],
    ['a sender shorter than the notifier takes', "config:\n  smtpFrom: 'ab'\n", /config\/smtpFrom/],
    [
      'a SASL mechanism kafkajs lacks',
      'config:\n  kafka:\n    saslMechanism: gssapi\n',
      /config\/kafka\/saslMechanism.*must be one of/,
    ],
    ['a TLS switch that is no boolean', "config:\n  kafka:\n    ssl: 'yes'\n", /config\/kafka\/ssl/],
    [
      'a CA Secret name Kubernetes refuses',
      'config:\n  kafka:\n    caSecret:\n      name: Kafka_CA\n',
      /config\/kafka\/caSecret\/name/,
    ],
    [
      'a staff OIDC issuer that is not https',
      "config:\n  staff:\n    oidc:\n      issuer: 'http://login.example.com'\n      clientId: eligo\n",
      /config\/staff\/oidc\/issuer/,
    ],
    [
      'staff OIDC scopes without email',
      "config:\n  staff:\n    oidc:\n      issuer: 'https://login.example.com'\n      clientId: eligo\n      scopes: openid profile\n",
      /config\/staff\/oidc\/scopes/,
    ],
    [
      'a staff lockout after 0 attempts',
      'config:\n  staff:\n    lockoutAttempts: 0\n',
      /config\/staff\/lockoutAttempts/,
    ],
    [
      'a staff session lifetime that is no number',
      "config:\n  staff:\n    sessionLifetimeMs: '12h'\n",
      /config\/staff\/sessionLifetimeMs/,
    ],
    [
      'an unknown whenUnsatisfiable',
      'topologySpread:\n  whenUnsatisfiable: Never\n',
      /topologySpread\/whenUnsatisfiable.*must be one of/,
    ],
    [
      'a raw spread constraint without its topologyKey',
      'topologySpreadConstraints:\n  - maxSkew: 1\n    whenUnsatisfiable: DoNotSchedule\n',
      /topologySpreadConstraints\/0.*topologyKey/,
    ],
  ])(
    'refuses %s',
    async (_what, content, message) => {
      const error = await renderChart([valuesFile(content)], SECRETS).then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(error).toMatch(/values don't meet the specifications of the schema/);
      expect(error).toMatch(message);
    },
    TIMEOUT,
  );
});

describe('kubernetes-validate', () => {
  it(
    'finds what it should: an unknown field fails in strict mode',
    async () => {
      const bad = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  bogus: 1\ndata: {}\n';
      const result = await kubernetesValidate(bad);
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain("'bogus' was unexpected");
    },
    TIMEOUT,
  );
});

describe('tracing', () => {
  const endpoint = 'http://otel-collector.observability:4318';
  const tracing = valuesFile(
    `tracing:\n  enabled: true\n  endpoint: ${endpoint}\n  sampler: traceidratio\n  samplerArg: '0.25'\n` +
      '  resourceAttributes: deployment.environment.name=production\nnetworkPolicy:\n  enabled: true\n',
  );
  const otel = (m: Manifest) =>
    Object.fromEntries(
      envOf(m)
        .filter((e) => e.name.startsWith('OTEL_'))
        .map((e) => [e.name, e.value]),
    );

  it(
    'sets no OTEL_ variable anywhere when disabled (the default)',
    async () => {
      expect(await renderChart([], SECRETS)).not.toContain('OTEL_');
      expect(await renderChart([join(examplesDir, 'all-in-one.yaml')])).not.toContain('OTEL_');
    },
    TIMEOUT,
  );

  it(
    "gives every Deployment's container the OTLP settings and eligo-<module> (split), the Jobs none",
    async () => {
      const text = await renderChart([tracing], SECRETS);
      const ms = parseManifests(text);
      const deployments = ofKind(ms, 'Deployment');
      expect(deployments).toHaveLength(MODULES.length);
      for (const d of deployments)
        expect(otel(d)).toEqual({
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_TRACES_SAMPLER: 'traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
          OTEL_SERVICE_NAME: `eligo-${d.metadata.name.replace(/^r1-/, '')}`,
          // `helm template` renders into the namespace `default`.
          OTEL_RESOURCE_ATTRIBUTES: 'k8s.namespace.name=default,deployment.environment.name=production',
        });
      for (const j of ofKind(ms, 'Job')) expect(otel(j)).toEqual({});
      expect(JSON.stringify(ofKind(ms, 'ConfigMap'))).not.toContain('OTEL_');
      // The NetworkPolicies restrict ingress only: egress to the collector stays open.
      const policies = ofKind(ms, 'NetworkPolicy');
      expect(policies).toHaveLength(MODULES.length);
      for (const p of policies) {
        expect(p.spec.policyTypes).toEqual(['Ingress']);
        expect(p.spec.egress).toBeUndefined();
      }
      await expectValid(text);
    },
    TIMEOUT,
  );

  it(
    'names the one Deployment of mode all `eligo`',
    async () => {
      const ms = parseManifests(
        await renderChart([join(examplesDir, 'all-in-one.yaml'), tracing], { 'tracing.protocol': 'grpc' }),
      );
      const deployments = ofKind(ms, 'Deployment');
      expect(deployments).toHaveLength(1);
      expect(otel(deployments[0]!)).toMatchObject({
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_SERVICE_NAME: 'eligo',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      });
    },
    TIMEOUT,
  );

  it(
    'refuses to render enabled without an endpoint, naming tracing.endpoint',
    async () => {
      expect(await renderError([valuesFile('tracing:\n  enabled: true\n')])).toMatch(
        /tracing\.endpoint is required with tracing\.enabled/,
      );
    },
    TIMEOUT,
  );
});

describe('what rolls the pods', () => {
  const templateAnnotations = (ms: Manifest[]) =>
    ofKind(ms, 'Deployment').map((d) => d.spec.template.metadata.annotations as Record<string, string>);
  const reload = (ms: Manifest[]) =>
    ofKind(ms, 'Deployment').map((d) => d.metadata.annotations?.['secret.reloader.stakater.com/reload']);
  const reloadOn = valuesFile('secrets:\n  reloadAnnotation: true\n');

  it(
    'a changed inline secret or setting changes the checksum in every pod template; another value does not',
    async () => {
      const render = async (set: Record<string, string>) =>
        templateAnnotations(parseManifests(await renderChart([], { ...SECRETS, ...set })));
      const base = await render({});
      const secret = await render({ 'secrets.adminToken.value': 'admin-token-SECRET-rotated-0123' });
      const config = await render({ 'config.logLevel': 'debug' });
      const unrelated = await render({ 'serviceMonitor.interval': '15s' });
      expect(base).toHaveLength(MODULES.length);
      base.forEach((b, i) => {
        expect(b['checksum/secret']).toMatch(/^[0-9a-f]{64}$/);
        expect(b['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
        expect(secret[i]!['checksum/secret']).not.toBe(b['checksum/secret']);
        expect(secret[i]!['checksum/config']).toBe(b['checksum/config']);
        expect(config[i]!['checksum/config']).not.toBe(b['checksum/config']);
        expect(config[i]!['checksum/secret']).toBe(b['checksum/secret']);
        expect(unrelated[i]).toEqual(b);
      });
    },
    TIMEOUT,
  );

  it(
    'with secrets.reloadAnnotation, names for Reloader exactly the existing Secrets each Deployment reads',
    async () => {
      expect(reload(parseManifests(await renderChart([join(examplesDir, 'split.yaml'), reloadOn])))).toEqual(
        MODULES.map(() => 'eligo-secrets'),
      );
      const text = await renderChart([join(examplesDir, 'external-kafka-s3.yaml'), reloadOn]);
      const ms = parseManifests(text);
      const rendered = new Set(ofKind(ms, 'Secret').map((s) => s.metadata.name));
      for (const d of ofKind(ms, 'Deployment')) {
        const read = new Set<string>([
          ...envOf(d).flatMap(
            (e) => (e.valueFrom as { secretKeyRef?: { name: string } } | undefined)?.secretKeyRef?.name ?? [],
          ),
          ...(d.spec.template.spec.volumes as Array<{ secret?: { secretName: string } }>).flatMap(
            (v) => v.secret?.secretName ?? [],
          ),
        ]);
        const expected = [...read].filter((name) => !rendered.has(name)).sort();
        // The notifier alone reads the SMTP URL; every Deployment the Kafka password and CA.
        expect(expected).toEqual(
          [
            'eligo-admin',
            'eligo-database',
            'eligo-encryption',
            'eligo-internal',
            'eligo-kafka-user',
            'eligo-s3',
            ...(d.metadata.name === 'r1-notifier' ? ['eligo-smtp'] : []),
            'kafka-cluster-ca-cert',
          ].sort(),
        );
        expect(d.metadata.annotations!['secret.reloader.stakater.com/reload']).toBe(expected.join(','));
      }
      // Not on the Jobs: each upgrade runs them anew.
      for (const j of ofKind(ms, 'Job'))
        expect(j.metadata.annotations!['secret.reloader.stakater.com/reload']).toBeUndefined();
      const result = await kubernetesValidate(builtinOnly(text));
      expect(result.stdout + result.stderr).toBe('');
      // Off by default; with every secret inline there is nothing for Reloader to watch.
      expect(reload(parseManifests(await renderChart([join(examplesDir, 'split.yaml')])))).toEqual(
        MODULES.map(() => undefined),
      );
      expect(reload(parseManifests(await renderChart([reloadOn], SECRETS)))).toEqual(
        MODULES.map(() => undefined),
      );
    },
    TIMEOUT,
  );
});

describe('ServiceAccount', () => {
  const automount = (m: Manifest) =>
    (m as unknown as { automountServiceAccountToken?: boolean }).automountServiceAccountToken;
  const accountOf = (m: Manifest) => m.spec.template.spec.serviceAccountName as string | undefined;

  it(
    "runs the Deployments as the release's account, the migration Jobs as its hook twin, with no token or RBAC",
    async () => {
      const owner = valuesFile('serviceAccount:\n  annotations:\n    example.com/owner: identity-team\n');
      const ms = parseManifests(await renderChart([owner], SECRETS));
      const accounts = ofKind(ms, 'ServiceAccount').sort((a, b) =>
        a.metadata.name.localeCompare(b.metadata.name),
      );
      expect(accounts.map((a) => [a.metadata.name, isHook(a)])).toEqual([
        ['r1', false],
        ['r1-migrate', true],
      ]);
      for (const a of accounts) {
        expect(automount(a)).toBe(false);
        expect(a.metadata.annotations).toMatchObject({ 'example.com/owner': 'identity-team' });
      }
      // The twin exists before the Jobs run (a lower hook weight) and goes with them.
      const twin = accounts[1]!.metadata.annotations!;
      expect(twin['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      expect(twin['helm.sh/hook-delete-policy']).toBe('before-hook-creation,hook-succeeded');
      for (const j of ofKind(ms, 'Job')) {
        expect(Number(twin['helm.sh/hook-weight'])).toBeLessThan(
          Number(j.metadata.annotations!['helm.sh/hook-weight']),
        );
        expect(accountOf(j)).toBe('r1-migrate');
        expect(j.spec.template.spec.automountServiceAccountToken).toBe(false);
      }
      for (const d of ofKind(ms, 'Deployment')) {
        expect(accountOf(d)).toBe('r1');
        expect(d.spec.template.spec.automountServiceAccountToken).toBe(false);
      }
      expect(ms.filter((m) => /Role/.test(m.kind))).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'uses an account you manage (or the namespace default) when create is false',
    async () => {
      for (const [name, expected] of [
        ['eligo-runner', 'eligo-runner'],
        ['', 'default'],
      ] as const) {
        const ms = parseManifests(
          await renderChart([valuesFile(`serviceAccount:\n  create: false\n  name: '${name}'\n`)], SECRETS),
        );
        expect(ofKind(ms, 'ServiceAccount')).toEqual([]);
        for (const w of [...ofKind(ms, 'Deployment'), ...ofKind(ms, 'Job')])
          expect(accountOf(w)).toBe(expected);
      }
    },
    TIMEOUT,
  );
});

describe('a module run elsewhere (modules.<name>.externalAddress)', () => {
  const disabled = (module: string, address = '') =>
    valuesFile(
      `modules:\n  ${module}:\n    enabled: false\n    externalAddress: '${address}'\nnetworkPolicy:\n  enabled: true\n`,
    );
  const called = MODULES.filter((m) => MODULES.some((c) => dependsOn(c).includes(m)));

  it.each(called)(
    'refuses %s disabled without an address, naming its callers (the services’ dependsOn)',
    async (module) => {
      const callers = MODULES.filter((c) => dependsOn(c).includes(module));
      expect(await renderError([disabled(module)])).toContain(
        `modules.${module}.externalAddress is required: modules.${module} is disabled but ${callers.join(', ')} call it`,
      );
    },
    TIMEOUT,
  );

  it(
    "points the callers at the address and renders nothing of the module's own",
    async () => {
      const address = 'eligo-programs.shared.svc.cluster.local:9090';
      const text = await renderChart([disabled('programs', address)], SECRETS);
      const ms = parseManifests(text);
      const config = ofKind(ms, 'ConfigMap')[0]!.data!;
      expect(config.ELIGO_PROGRAMS_GRPC_ADDRESS).toBe(address);
      for (const m of MODULES.filter((x) => x !== 'programs'))
        expect(config[`ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`]).toBe(`r1-${m}:9090`);
      expect(
        ms.filter((m) => m.metadata.name === 'r1-programs' || m.metadata.name === 'r1-migrate-programs'),
      ).toEqual([]);
      // No policy admits or selects the absent module; egress (to the address) is not restricted.
      for (const p of ofKind(ms, 'NetworkPolicy')) {
        expect(JSON.stringify(p)).not.toContain('programs');
        expect(p.spec.policyTypes).toEqual(['Ingress']);
      }
      const result = await kubernetesValidate(text);
      expect(result.stdout + result.stderr).toBe('');
    },
    TIMEOUT,
  );

  it(
    'needs no address for a module nobody calls, and refuses one on an enabled module',
    async () => {
      const config = ofKind(
        parseManifests(await renderChart([disabled('gateway')], SECRETS)),
        'ConfigMap',
      )[0]!;
      expect(config.data!.ELIGO_GATEWAY_GRPC_ADDRESS).toBeUndefined();
      expect(
        await renderError([valuesFile("modules:\n  reports:\n    externalAddress: 'reports.other:9090'\n")]),
      ).toMatch(
        /modules\.reports\.externalAddress is for a disabled module: modules\.reports\.enabled is true/,
      );
    },
    TIMEOUT,
  );
});

describe('ServiceMonitor against deploy/helm/schemas/servicemonitor-v1.schema.json (Ajv)', () => {
  const schemaFile = join(
    __dirname,
    '..',
    '..',
    'deploy',
    'helm',
    'schemas',
    'servicemonitor-v1.schema.json',
  );
  const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  const errors = (m: unknown): string[] =>
    validate(m)
      ? []
      : validate.errors!.map(
          (e) =>
            `${e.instancePath} ${e.message}` +
            (e.params.additionalProperty ? ` ${e.params.additionalProperty}` : ''),
        );
  let monitor: Manifest;
  beforeAll(async () => {
    const ms = parseManifests(
      await renderChart([join(examplesDir, 'split.yaml')], { 'serviceMonitor.scrapeTimeout': '10s' }),
    );
    monitor = ofKind(ms, 'ServiceMonitor')[0]!;
  }, TIMEOUT);

  it(
    'accepts the rendered ones (split example with a scrape timeout, mode all)',
    async () => {
      expect(monitor.spec.endpoints[0].scrapeTimeout).toBe('10s');
      expect(errors(monitor)).toEqual([]);
      const all = parseManifests(
        await renderChart([
          join(examplesDir, 'all-in-one.yaml'),
          valuesFile('serviceMonitor:\n  enabled: true\n'),
        ]),
      );
      expect(ofKind(all, 'ServiceMonitor')).toHaveLength(1);
      expect(errors(ofKind(all, 'ServiceMonitor')[0])).toEqual([]);
    },
    TIMEOUT,
  );

  it('refuses a broken one, naming each fault', () => {
    const broken = structuredClone(monitor);
    broken.apiVersion = 'monitoring.coreos.com/v1beta1';
    broken.metadata.labels!.release = 'x'.repeat(64);
    broken.spec.endpoints[0].interval = '30 seconds';
    broken.spec.endpoints[0].scrapeTimout = '10s';
    broken.spec.namespaceSelector = { matchNames: ['Default'] };
    delete broken.spec.selector;
    const found = errors(broken);
    expect(found).toEqual(
      expect.arrayContaining([
        '/apiVersion must be equal to constant',
        '/metadata/labels/release must NOT have more than 63 characters',
        expect.stringMatching(/^\/spec\/endpoints\/0\/interval must match pattern/),
        '/spec/endpoints/0 must NOT have additional properties scrapeTimout',
        expect.stringMatching(/^\/spec\/namespaceSelector\/matchNames\/0 must match pattern/),
        "/spec must have required property 'selector'",
      ]),
    );
    expect(found).toHaveLength(6);
  });
});

describe('SMTP (secrets.smtpUrl, config.smtpFrom)', () => {
  const smtpUrl = 'smtp://eligo:smtp-pw-SECRET@mail.example.com:587';
  const smtp = valuesFile(
    `config:\n  smtpFrom: 'Eligo <no-reply@example.com>'\nsecrets:\n  smtpUrl:\n    value: '${smtpUrl}'\n`,
  );
  const smtpEnv = (m: Manifest) => envOf(m).find((e) => e.name === 'ELIGO_SMTP_URL');

  it(
    'sets neither variable by default: the notifier keeps its mails in the local capture',
    async () => {
      const text = await renderChart([], SECRETS);
      expect(text).not.toContain('ELIGO_SMTP_URL');
      expect(text).not.toContain('ELIGO_SMTP_FROM');
    },
    TIMEOUT,
  );

  it(
    "gives the URL to the notifier's container alone, from the Secret, and the sender through the ConfigMap",
    async () => {
      const text = await renderChart([smtp], SECRETS);
      const ms = parseManifests(text);
      for (const d of ofKind(ms, 'Deployment'))
        expect(smtpEnv(d)).toEqual(
          d.metadata.name === 'r1-notifier'
            ? { name: 'ELIGO_SMTP_URL', valueFrom: { secretKeyRef: { name: 'r1', key: 'smtp-url' } } }
            : undefined,
        );
      // The migration Jobs send nothing.
      for (const j of ofKind(ms, 'Job')) expect(smtpEnv(j)).toBeUndefined();
      const [config] = ofKind(ms, 'ConfigMap');
      expect(config!.data!.ELIGO_SMTP_FROM).toBe('Eligo <no-reply@example.com>');
      expect(JSON.stringify(config)).not.toContain('smtp-pw-SECRET');
      const secret = ofKind(ms, 'Secret').find((s) => s.metadata.name === 'r1')!;
      expect(Buffer.from(secret.data!['smtp-url']!, 'base64').toString()).toBe(smtpUrl);
      await expectValid(text);
    },
    TIMEOUT,
  );

  it(
    'gives it to the one Deployment of mode all, from an existing Secret with its own key',
    async () => {
      const ms = parseManifests(
        await renderChart([join(examplesDir, 'all-in-one.yaml')], {
          'secrets.smtpUrl.existingSecret': 'mail',
          'secrets.smtpUrl.key': 'url',
        }),
      );
      const [d] = ofKind(ms, 'Deployment');
      expect(smtpEnv(d!)).toEqual({
        name: 'ELIGO_SMTP_URL',
        valueFrom: { secretKeyRef: { name: 'mail', key: 'url' } },
      });
      expect(ofKind(ms, 'Secret')).toEqual([]);
    },
    TIMEOUT,
  );
});

describe('staff sign-in (config.staff, secrets.staffOidcClientSecret)', () => {
  const clientSecret = 'oidc-client-SECRET-0123456789';
  const issuer = 'https://login.example.com/realms/staff';
  const staff = valuesFile(
    'config:\n  staff:\n    sessionLifetimeMs: 28800000\n    sessionIdleMs: 600000\n' +
      '    lockoutAttempts: 3\n    lockoutMs: 60000\n    signInPerMinute: 0\n' +
      `    oidc:\n      issuer: '${issuer}'\n      clientId: eligo-console\n` +
      "      scopes: 'openid email profile groups'\n      label: Example SSO\n",
  );
  const withSecret = valuesFile(`secrets:\n  staffOidcClientSecret:\n    value: '${clientSecret}'\n`);
  const secretFile = 'ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE';
  const staffKeys = (data: Record<string, string>) =>
    Object.fromEntries(Object.entries(data).filter(([k]) => k.startsWith('ELIGO_GATEWAY_STAFF_')));
  const volumeNames = (m: Manifest) =>
    (m.spec.template.spec.volumes as Array<{ name: string }>).map((v) => v.name);
  const reloadOf = (m: Manifest) =>
    (m.metadata.annotations?.['secret.reloader.stakater.com/reload'] ?? '').split(',');
  let scratchRoot: string;
  beforeAll(() => {
    scratchRoot = mkdtempSync(join(tmpdir(), 'eligo-chart-staff-'));
  });
  afterAll(() => rmSync(scratchRoot, { recursive: true, force: true }));

  it(
    "sets no staff variable by default (the process's defaults) and mounts no client secret",
    async () => {
      for (const text of [
        await renderChart([], SECRETS),
        await renderChart([join(examplesDir, 'all-in-one.yaml')]),
      ]) {
        expect(text).not.toContain('ELIGO_GATEWAY_STAFF_');
        for (const d of ofKind(parseManifests(text), 'Deployment'))
          expect(volumeNames(d)).not.toContain('staff-oidc');
      }
    },
    TIMEOUT,
  );

  it(
    'puts the set values in the ConfigMap as the process reads them (0 included, no exponent), the secret apart',
    async () => {
      const text = await renderChart([staff, withSecret], SECRETS);
      const ms = parseManifests(text);
      const [config] = ofKind(ms, 'ConfigMap');
      expect(staffKeys(config!.data!)).toEqual({
        ELIGO_GATEWAY_STAFF_SESSION_LIFETIME_MS: '28800000',
        ELIGO_GATEWAY_STAFF_SESSION_IDLE_MS: '600000',
        ELIGO_GATEWAY_STAFF_LOCKOUT_ATTEMPTS: '3',
        ELIGO_GATEWAY_STAFF_LOCKOUT_MS: '60000',
        ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE: '0',
        ELIGO_GATEWAY_STAFF_OIDC_ISSUER: issuer,
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'eligo-console',
        ELIGO_GATEWAY_STAFF_OIDC_SCOPES: 'openid email profile groups',
        ELIGO_GATEWAY_STAFF_OIDC_LABEL: 'Example SSO',
      });
      expect(JSON.stringify(ofKind(ms, 'ConfigMap'))).not.toContain(clientSecret);
      const secret = ofKind(ms, 'Secret').find((s) => s.metadata.name === 'r1')!;
      expect(Buffer.from(secret.data!['staff-oidc-client-secret']!, 'base64').toString()).toBe(clientSecret);
      await expectValid(text);
      // One value alone sets its variable alone; an issuer with its client id alone leaves scopes and label out.
      const some = parseManifests(
        await renderChart(
          [
            valuesFile(
              `config:\n  staff:\n    signInPerMinute: 30\n    oidc:\n      issuer: '${issuer}'\n` +
                '      clientId: eligo-console\n',
            ),
          ],
          SECRETS,
        ),
      );
      expect(staffKeys(ofKind(some, 'ConfigMap')[0]!.data!)).toEqual({
        ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE: '30',
        ELIGO_GATEWAY_STAFF_OIDC_ISSUER: issuer,
        ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: 'eligo-console',
      });
      for (const d of ofKind(some, 'Deployment')) expect(volumeNames(d)).not.toContain('staff-oidc');
    },
    TIMEOUT,
  );

  it(
    "mounts the client secret read-only as a file in the gateway's container alone (split), none in the Jobs",
    async () => {
      const ms = parseManifests(await renderChart([staff, withSecret], SECRETS));
      const deployments = ofKind(ms, 'Deployment');
      expect(deployments).toHaveLength(MODULES.length);
      const image = readImageProcess();
      for (const d of deployments) {
        const c = container(d);
        const names = envOf(d).map((e) => e.name);
        if (d.metadata.name !== 'r1-gateway') {
          expect(names).not.toContain(secretFile);
          expect(volumeNames(d)).not.toContain('staff-oidc');
          continue;
        }
        expect(c.env).toContainEqual({ name: secretFile, value: '/etc/eligo/staff-oidc/client-secret' });
        expect(c.volumeMounts).toContainEqual({
          name: 'staff-oidc',
          mountPath: '/etc/eligo/staff-oidc',
          readOnly: true,
        });
        expect(d.spec.template.spec.volumes).toContainEqual({
          name: 'staff-oidc',
          secret: { secretName: 'r1', items: [{ key: 'staff-oidc-client-secret', path: 'client-secret' }] },
        });
        for (const e of envOf(d)) expect(e.value ?? '').not.toContain(clientSecret);
        // The file the process reads holds the secret once the volume is mounted (as the run test mounts it).
        const mounts = materializeVolumes(
          ms,
          d.spec.template.spec,
          c,
          mkdtempSync(join(scratchRoot, 'gateway-')),
          d.metadata.name,
        );
        const env = mapMountPaths(containerEnv(ms, c, image, d.metadata.name), mounts);
        expect(readFileSync(env[secretFile]!, 'utf8')).toBe(clientSecret);
        expect(env.ELIGO_GATEWAY_STAFF_OIDC_ISSUER).toBe(issuer);
      }
      for (const j of ofKind(ms, 'Job')) {
        expect(envOf(j).map((e) => e.name)).not.toContain(secretFile);
        expect(volumeNames(j).sort()).toEqual(['data', 'tmp']);
      }
    },
    TIMEOUT,
  );

  it(
    'mounts it in the one Deployment of mode all, from an existing Secret that Reloader then watches',
    async () => {
      const existing = valuesFile(
        'secrets:\n  reloadAnnotation: true\n  staffOidcClientSecret:\n    existingSecret: eligo-oidc\n' +
          '    key: client-secret\n',
      );
      const text = await renderChart([join(examplesDir, 'all-in-one.yaml'), staff, existing]);
      const ms = parseManifests(text);
      const [d] = ofKind(ms, 'Deployment');
      expect(container(d!).env).toContainEqual({
        name: secretFile,
        value: '/etc/eligo/staff-oidc/client-secret',
      });
      expect(d!.spec.template.spec.volumes).toContainEqual({
        name: 'staff-oidc',
        secret: { secretName: 'eligo-oidc', items: [{ key: 'client-secret', path: 'client-secret' }] },
      });
      expect(reloadOf(d!)).toContain('eligo-oidc');
      expect(ofKind(ms, 'Secret')).toEqual([]);
      await expectValid(text);
      // Split: only the gateway's Deployment reads it, so only the gateway's names it for Reloader.
      const split = parseManifests(await renderChart([join(examplesDir, 'split.yaml'), staff, existing]));
      for (const s of ofKind(split, 'Deployment'))
        expect(reloadOf(s).includes('eligo-oidc')).toBe(s.metadata.name === 'r1-gateway');
    },
    TIMEOUT,
  );

  it.each([
    [
      'an issuer without a client id',
      `config:\n  staff:\n    oidc:\n      issuer: '${issuer}'\n`,
      'config.staff.oidc.clientId is required with config.staff.oidc.issuer',
    ],
    [
      'a client id without an issuer',
      'config:\n  staff:\n    oidc:\n      clientId: eligo-console\n',
      'config.staff.oidc.clientId needs config.staff.oidc.issuer',
    ],
    [
      'a label without an issuer',
      'config:\n  staff:\n    oidc:\n      label: Example SSO\n',
      'config.staff.oidc.label needs config.staff.oidc.issuer',
    ],
    [
      'a client secret without an issuer',
      'secrets:\n  staffOidcClientSecret:\n    existingSecret: eligo-oidc\n',
      'secrets.staffOidcClientSecret needs config.staff.oidc.issuer',
    ],
  ])(
    'refuses %s, naming the value',
    async (_what, content, message) => {
      expect(await renderError([valuesFile(content)])).toContain(message);
    },
    TIMEOUT,
  );
});

describe('Kafka TLS and SASL', () => {
  const brokers = 'kafka-0.kafka:9093,kafka-1.kafka:9093';
  const password = 'kafka-pw-SECRET-0123456789';
  const secured = (extra = '') =>
    valuesFile(
      `config:\n  kafka:\n    brokers: ${brokers}\n    ssl: true\n    saslMechanism: scram-sha-512\n` +
        `    saslUsername: eligo\n    caSecret:\n      name: kafka-cluster-ca-cert\n${extra}` +
        `secrets:\n  kafkaSaslPassword:\n    value: ${password}\n`,
    );
  const securityKeys = ['ELIGO_KAFKA_SSL', 'ELIGO_KAFKA_SASL_MECHANISM', 'ELIGO_KAFKA_SASL_USERNAME'];
  const fileKeys = ['ELIGO_KAFKA_SASL_PASSWORD_FILE', 'ELIGO_KAFKA_SSL_CA_FILE'];
  let scratchRoot: string;
  beforeAll(() => {
    scratchRoot = mkdtempSync(join(tmpdir(), 'eligo-chart-kafka-'));
  });
  afterAll(() => rmSync(scratchRoot, { recursive: true, force: true }));

  it(
    'puts the settings in the ConfigMap, mounts the password and the CA read-only as files, in every Deployment',
    async () => {
      const text = await renderChart([secured()], SECRETS);
      const ms = parseManifests(text);
      const config = ofKind(ms, 'ConfigMap')[0]!.data!;
      expect(config).toMatchObject({
        ELIGO_KAFKA_BROKERS: brokers,
        ELIGO_KAFKA_SSL: 'true',
        ELIGO_KAFKA_SASL_MECHANISM: 'scram-sha-512',
        ELIGO_KAFKA_SASL_USERNAME: 'eligo',
      });
      expect(JSON.stringify(ofKind(ms, 'ConfigMap'))).not.toContain(password);
      const deployments = ofKind(ms, 'Deployment');
      expect(deployments).toHaveLength(MODULES.length);
      for (const d of deployments) {
        const c = container(d);
        expect(c.env).toEqual(
          expect.arrayContaining([
            { name: 'ELIGO_KAFKA_SASL_PASSWORD_FILE', value: '/etc/eligo/kafka-sasl/password' },
            { name: 'ELIGO_KAFKA_SSL_CA_FILE', value: '/etc/eligo/kafka-ca/ca.crt' },
          ]),
        );
        for (const e of envOf(d)) expect(e.value ?? '').not.toContain(password);
        expect(c.volumeMounts).toEqual(
          expect.arrayContaining([
            { name: 'kafka-sasl', mountPath: '/etc/eligo/kafka-sasl', readOnly: true },
            { name: 'kafka-ca', mountPath: '/etc/eligo/kafka-ca', readOnly: true },
          ]),
        );
        expect(d.spec.template.spec.volumes).toEqual(
          expect.arrayContaining([
            {
              name: 'kafka-sasl',
              secret: { secretName: 'r1', items: [{ key: 'kafka-sasl-password', path: 'password' }] },
            },
            {
              name: 'kafka-ca',
              secret: { secretName: 'kafka-cluster-ca-cert', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
            },
          ]),
        );
      }
      await expectValid(text);
    },
    TIMEOUT,
  );

  it(
    'leaves the migration Jobs as they were: brokers only, no TLS or SASL setting, file or volume',
    async () => {
      const ms = parseManifests(await renderChart([secured()], SECRETS));
      const jobs = ofKind(ms, 'Job');
      expect(jobs).toHaveLength(MODULES.length);
      for (const j of jobs) {
        const names = envOf(j).map((e) => e.name);
        expect(names).toContain('ELIGO_KAFKA_BROKERS');
        for (const k of [...securityKeys, ...fileKeys]) expect(names).not.toContain(k);
        const volumes = (j.spec.template.spec.volumes as Array<{ name: string }>).map((v) => v.name);
        expect(volumes.sort()).toEqual(['data', 'tmp']);
      }
    },
    TIMEOUT,
  );

  it(
    'names files that hold the password and the CA once the volumes are mounted (as the run test mounts them)',
    async () => {
      const ms = parseManifests(await renderChart([secured()], SECRETS));
      // The CA Secret is yours (e.g. Strimzi's): stand one in, as the cluster would hold it.
      const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
      const ca: Manifest = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'kafka-cluster-ca-cert' },
        data: { 'ca.crt': Buffer.from(pem).toString('base64') },
      };
      const all = [...ms, ca];
      const image = readImageProcess();
      for (const d of ofKind(ms, 'Deployment')) {
        const c = container(d);
        const mounts = materializeVolumes(
          all,
          d.spec.template.spec,
          c,
          mkdtempSync(join(scratchRoot, `${d.metadata.name}-`)),
          d.metadata.name,
        );
        const env = mapMountPaths(containerEnv(all, c, image, d.metadata.name), mounts);
        expect(readFileSync(env.ELIGO_KAFKA_SASL_PASSWORD_FILE!, 'utf8')).toBe(password);
        expect(readFileSync(env.ELIGO_KAFKA_SSL_CA_FILE!, 'utf8')).toBe(pem);
      }
    },
    TIMEOUT,
  );

  it(
    'sets ELIGO_KAFKA_SSL=false and nothing else of TLS or SASL with plain brokers, nothing without brokers',
    async () => {
      const plain = parseManifests(
        await renderChart([], { ...SECRETS, 'config.kafka.brokers': 'kafka:9092' }),
      );
      const config = ofKind(plain, 'ConfigMap')[0]!.data!;
      expect(config.ELIGO_KAFKA_SSL).toBe('false');
      expect(Object.keys(config).filter((k) => /SASL|CA_FILE/.test(k))).toEqual([]);
      for (const d of ofKind(plain, 'Deployment'))
        for (const k of fileKeys) expect(envOf(d).map((e) => e.name)).not.toContain(k);
      // TLS only (public CAs): no CA file, no SASL.
      const tls = parseManifests(
        await renderChart(
          [valuesFile('config:\n  kafka:\n    brokers: kafka:9093\n    ssl: true\n')],
          SECRETS,
        ),
      );
      expect(ofKind(tls, 'ConfigMap')[0]!.data!.ELIGO_KAFKA_SSL).toBe('true');
      for (const d of ofKind(tls, 'Deployment'))
        expect((d.spec.template.spec.volumes as Array<{ name: string }>).map((v) => v.name).sort()).toEqual([
          'data',
          'internal-token',
          'tmp',
        ]);
      expect(await renderChart([], SECRETS)).not.toContain('ELIGO_KAFKA_');
    },
    TIMEOUT,
  );

  it.each([
    [
      'TLS without brokers',
      'config:\n  kafka:\n    ssl: true\n',
      'config.kafka.ssl needs config.kafka.brokers',
    ],
    [
      'a SASL password without brokers',
      'secrets:\n  kafkaSaslPassword:\n    existingSecret: kafka-user\n',
      'secrets.kafkaSaslPassword needs config.kafka.brokers',
    ],
    [
      'a CA Secret without TLS',
      'config:\n  kafka:\n    brokers: kafka:9093\n    caSecret:\n      name: kafka-ca\n',
      'config.kafka.caSecret needs config.kafka.ssl: true',
    ],
    [
      'a mechanism without a username',
      'config:\n  kafka:\n    brokers: kafka:9093\n    saslMechanism: plain\n',
      'config.kafka.saslUsername is required with config.kafka.saslMechanism (plain)',
    ],
    [
      'a mechanism without a password',
      'config:\n  kafka:\n    brokers: kafka:9093\n    saslMechanism: scram-sha-256\n    saslUsername: eligo\n',
      'secrets.kafkaSaslPassword is required with config.kafka.saslMechanism (scram-sha-256): set secrets.kafkaSaslPassword.value or secrets.kafkaSaslPassword.existingSecret',
    ],
    [
      'a username without a mechanism',
      'config:\n  kafka:\n    brokers: kafka:9093\n    saslUsername: eligo\n',
      'config.kafka.saslUsername needs config.kafka.saslMechanism',
    ],
    [
      'a password without a mechanism',
      'config:\n  kafka:\n    brokers: kafka:9093\nsecrets:\n  kafkaSaslPassword:\n    value: pw\n',
      'secrets.kafkaSaslPassword needs config.kafka.saslMechanism',
    ],
  ])(
    'refuses %s, naming the value',
    async (_what, content, message) => {
      expect(await renderError([valuesFile(content)])).toContain(message);
    },
    TIMEOUT,
  );
});

describe('topology spread', () => {
  type Constraint = {
    maxSkew: number;
    topologyKey: string;
    whenUnsatisfiable: string;
    labelSelector?: { matchLabels: Record<string, string> };
    matchLabelKeys?: string[];
  };
  const spreadOf = (d: Manifest) =>
    d.spec.template.spec.topologySpreadConstraints as Constraint[] | undefined;
  const selects = (c: Constraint, d: Manifest) =>
    Object.entries(c.labelSelector!.matchLabels).every(
      ([k, v]) => (d.spec.template.metadata.labels as Record<string, string>)[k] === v,
    );

  it(
    "spreads each Deployment's own pods over nodes and zones by default (ScheduleAnyway), the Jobs not",
    async () => {
      const ms = parseManifests(await renderChart([], SECRETS));
      const deployments = ofKind(ms, 'Deployment');
      for (const d of deployments) {
        const spread = spreadOf(d)!;
        const own = { matchLabels: d.spec.selector.matchLabels };
        expect(spread).toEqual(
          ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'].map((topologyKey) => ({
            maxSkew: 1,
            topologyKey,
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: own,
            // The old and the new ReplicaSet of a rolling update are counted apart.
            matchLabelKeys: ['pod-template-hash'],
          })),
        );
        // Its own pods, and no other Deployment's.
        for (const c of spread)
          expect(deployments.filter((other) => selects(c, other)).map((o) => o.metadata.name)).toEqual([
            d.metadata.name,
          ]);
      }
      for (const j of ofKind(ms, 'Job')) expect(spreadOf(j)).toBeUndefined();
      const all = parseManifests(await renderChart([join(examplesDir, 'all-in-one.yaml')]));
      expect(spreadOf(ofKind(all, 'Deployment')[0]!)!.map((c) => c.labelSelector!.matchLabels)).toEqual([
        expect.objectContaining({ 'app.kubernetes.io/component': 'all' }),
        expect.objectContaining({ 'app.kubernetes.io/component': 'all' }),
      ]);
    },
    TIMEOUT,
  );

  it(
    'follows topologySpread: nodes only, DoNotSchedule, or none',
    async () => {
      const strict = await renderChart(
        [valuesFile('topologySpread:\n  zone: false\n  whenUnsatisfiable: DoNotSchedule\n')],
        SECRETS,
      );
      for (const d of ofKind(parseManifests(strict), 'Deployment'))
        expect(spreadOf(d)!.map((c) => [c.topologyKey, c.whenUnsatisfiable])).toEqual([
          ['kubernetes.io/hostname', 'DoNotSchedule'],
        ]);
      const result = await kubernetesValidate(strict);
      expect(result.stdout + result.stderr).toBe('');
      const off = parseManifests(
        await renderChart([valuesFile('topologySpread:\n  enabled: false\n')], SECRETS),
      );
      for (const d of ofKind(off, 'Deployment')) expect(spreadOf(d)).toBeUndefined();
    },
    TIMEOUT,
  );

  it(
    "replaces them with topologySpreadConstraints, giving the Deployment's selector to one that has none",
    async () => {
      const raw = valuesFile(
        'topologySpread:\n  enabled: false\n' +
          'topologySpreadConstraints:\n' +
          '  - maxSkew: 2\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: DoNotSchedule\n' +
          '    minDomains: 3\n' +
          '  - maxSkew: 1\n    topologyKey: kubernetes.io/hostname\n    whenUnsatisfiable: ScheduleAnyway\n' +
          '    labelSelector:\n      matchLabels:\n        app.kubernetes.io/name: eligo\n',
      );
      const text = await renderChart([raw], SECRETS);
      for (const d of ofKind(parseManifests(text), 'Deployment'))
        expect(spreadOf(d)).toEqual([
          {
            maxSkew: 2,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule',
            minDomains: 3,
            labelSelector: { matchLabels: d.spec.selector.matchLabels },
          },
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'eligo' } },
          },
        ]);
      await expectValid(text);
    },
    TIMEOUT,
  );
});
