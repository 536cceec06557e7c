import { join } from 'node:path';
import { readFileSync } from 'node:fs';
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

  /** Each service's `export const dependsOn = [...]`, read from its source. */
  function dependsOn(module: string): string[] {
    const source = readFileSync(join(__dirname, '..', '..', 'services', module, 'src', 'index.ts'), 'utf8');
    const list = /export const dependsOn = \[([^\]]*)\]/.exec(source);
    if (!list) throw new Error(`no dependsOn in services/${module}/src/index.ts`);
    return [...list[1]!.matchAll(/'([a-z]+)'/g)].map((m) => m[1]!);
  }

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
