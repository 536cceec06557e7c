import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
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
      const result = await kubernetesValidate(text);
      expect(result.stdout + result.stderr).toBe('');
      expect(result.code).toBe(0);
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
      const result = await kubernetesValidate(builtinOnly(text));
      expect(result.stdout + result.stderr).toBe('');
      expect(result.code).toBe(0);
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
      expect(config.ELIGO_KAFKA_BROKERS).toContain('b-1.kafka.example.com:9092');
      const env = container(deployments[0]!).env as Array<{ name: string; valueFrom?: unknown }>;
      expect(env.find((e) => e.name === 'ELIGO_S3_SECRET_KEY')!.valueFrom).toEqual({
        secretKeyRef: { name: 'eligo-s3', key: 'secret-key' },
      });
      const volumes = deployments[0]!.spec.template.spec.volumes as Array<{ name: string; secret?: unknown }>;
      expect(volumes.find((v) => v.name === 'internal-token')!.secret).toEqual({
        secretName: 'eligo-internal',
        items: [{ key: 'tokens', path: 'token' }],
      });
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
      const result = await kubernetesValidate(text);
      expect(result.stdout + result.stderr).toBe('');
      expect(result.code).toBe(0);
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
        expect(expected).toEqual([
          'eligo-admin',
          'eligo-database',
          'eligo-encryption',
          'eligo-internal',
          'eligo-s3',
        ]);
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
