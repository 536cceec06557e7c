import { Client, credentials } from '@grpc/grpc-js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ImageProcess } from './dockerfile';
import { freePort } from './eligo-process';
import type { Manifest } from './helm-chart';

// Runs what a rendered chart would run, as local processes: each container's command, arguments and environment
// (image ENV, envFrom ConfigMaps/Secrets, env with secretKeyRef/configMapKeyRef), its volumes as temp dirs (Secret
// volumes written as files), its ports as free local ports, and every `<service>:<port>` the environment names
// mapped onto the local port of the container that Service selects. Wiring the chart gets wrong (a Secret key
// that does not exist, an address naming no Service, a Service selecting no pod or a port no process listens on)
// throws here with what is wrong.

export const repoRoot = join(__dirname, '..', '..');

/* eslint-disable @typescript-eslint/no-explicit-any */
type Container = any;
type PodSpec = any;

/** The port each listener of the process takes from its environment, by container port name. */
export const portEnv: Record<string, string> = { http: 'ELIGO_HTTP_PORT', grpc: 'ELIGO_GRPC_PORT' };

export function byKind(manifests: Manifest[], kind: string): Manifest[] {
  return manifests.filter((m) => m.kind === kind);
}

function named(manifests: Manifest[], kind: string, name: string, what: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${what} names the ${kind} ${name}, which the chart does not render`);
  return found;
}

/** A Secret's entries as text (data is base64, stringData plain). */
function secretEntries(secret: Manifest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) out[k] = Buffer.from(v, 'base64').toString('utf8');
  for (const [k, v] of Object.entries((secret as any).stringData ?? {})) out[k] = String(v);
  return out;
}

function entry(source: Record<string, string>, key: string, what: string): string {
  if (!(key in source)) throw new Error(`${what}: no key ${key}`);
  return source[key]!;
}

/** The environment a container starts with: image ENV, then envFrom in order, then env (later wins). */
export function containerEnv(
  manifests: Manifest[],
  container: Container,
  image: ImageProcess,
  owner: string,
): Record<string, string> {
  const env: Record<string, string> = { ...image.env };
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.configMapRef) {
      const cm = named(manifests, 'ConfigMap', from.configMapRef.name, `${owner} envFrom`);
      for (const [k, v] of Object.entries(cm.data ?? {})) env[prefix + k] = String(v);
    } else if (from.secretRef) {
      const s = named(manifests, 'Secret', from.secretRef.name, `${owner} envFrom`);
      for (const [k, v] of Object.entries(secretEntries(s))) env[prefix + k] = v;
    } else throw new Error(`${owner}: envFrom entry not understood: ${JSON.stringify(from)}`);
  }
  for (const e of container.env ?? []) {
    const what = `${owner} env ${e.name}`;
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      const s = named(manifests, 'Secret', ref.name, what);
      env[e.name] = entry(secretEntries(s), ref.key, `${what} (Secret ${ref.name})`);
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      const cm = named(manifests, 'ConfigMap', ref.name, what);
      env[e.name] = entry(cm.data ?? {}, ref.key, `${what} (ConfigMap ${ref.name})`);
    } else throw new Error(`${what}: value not understood: ${JSON.stringify(e)}`);
  }
  return env;
}

/**
 * The container's volume mounts as temp dirs: emptyDirs empty, Secret volumes with their items written as files.
 * Returns mount path -> local dir.
 */
export function materializeVolumes(
  manifests: Manifest[],
  pod: PodSpec,
  container: Container,
  root: string,
  owner: string,
): Record<string, string> {
  const mounts: Record<string, string> = {};
  for (const mount of container.volumeMounts ?? []) {
    const volume = (pod.volumes ?? []).find((v: any) => v.name === mount.name);
    if (!volume) throw new Error(`${owner} mounts volume ${mount.name}, which the pod does not declare`);
    const dir = join(root, mount.name);
    mkdirSync(dir, { recursive: true });
    if (volume.secret) {
      const s = named(manifests, 'Secret', volume.secret.secretName, `${owner} volume ${mount.name}`);
      const entries = secretEntries(s);
      const items: { key: string; path: string }[] =
        volume.secret.items ?? Object.keys(entries).map((key) => ({ key, path: key }));
      for (const item of items) {
        const file = join(dir, item.path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(
          file,
          entry(entries, item.key, `${owner} volume ${mount.name} (Secret ${s.metadata.name})`),
        );
      }
    } else if (!volume.emptyDir)
      throw new Error(`${owner} volume ${mount.name}: only emptyDir and secret are run`);
    mounts[mount.mountPath] = dir;
  }
  return mounts;
}

/** One Service port, resolved to the Deployment and container port behind it. */
export interface ServiceTarget {
  service: string;
  port: number;
  deployment: string;
  containerPort: number;
}

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** Every Service port, with the one Deployment its selector picks and the container port its targetPort names. */
export function serviceTargets(manifests: Manifest[]): ServiceTarget[] {
  const deployments = byKind(manifests, 'Deployment');
  const out: ServiceTarget[] = [];
  for (const svc of byKind(manifests, 'Service')) {
    const picked = deployments.filter((d) =>
      matches(svc.spec.selector ?? {}, d.spec.template.metadata.labels),
    );
    if (picked.length !== 1)
      throw new Error(
        `Service ${svc.metadata.name} selects ${picked.length} Deployments (${picked.map((d) => d.metadata.name).join(', ')}), not one`,
      );
    const deployment = picked[0]!;
    const ports = deployment.spec.template.spec.containers.flatMap((c: Container) => c.ports ?? []);
    for (const p of svc.spec.ports) {
      const target = p.targetPort ?? p.port;
      const cp = ports.find((x: any) =>
        typeof target === 'string' ? x.name === target : x.containerPort === target,
      );
      if (!cp)
        throw new Error(
          `Service ${svc.metadata.name} port ${p.port} targets ${target}, which no container of ${deployment.metadata.name} declares`,
        );
      out.push({
        service: svc.metadata.name,
        port: p.port,
        deployment: deployment.metadata.name,
        containerPort: cp.containerPort,
      });
    }
  }
  return out;
}

/**
 * Rewrites every `<service>:<port>` in the environment to `127.0.0.1:<local port>` of the container behind it.
 * An `*_ADDRESS` value that names no rendered Service port fails with the variable's name.
 */
export function rewriteServiceAddresses(
  env: Record<string, string>,
  targets: ServiceTarget[],
  localPort: (deployment: string, containerPort: number) => number,
  owner: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    let value = v;
    for (const t of targets) {
      const re = new RegExp(
        `(^|[/@,])${t.service.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${t.port}(?![0-9])`,
        'g',
      );
      value = value.replace(
        re,
        (_m, lead: string) => `${lead}127.0.0.1:${localPort(t.deployment, t.containerPort)}`,
      );
    }
    if (/_ADDRESS$/.test(k) && !/^127\.0\.0\.1:\d+$/.test(value))
      throw new Error(
        `${owner}: ${k}=${v} names no Service port the chart renders (Services: ${[...new Set(targets.map((t) => `${t.service}:${t.port}`))].join(', ')})`,
      );
    out[k] = value;
  }
  return out;
}

/** Maps paths under a mount onto its local dir (ELIGO_DATA_DIR, TMPDIR, ELIGO_INTERNAL_TOKEN_FILE...). */
export function mapMountPaths(
  env: Record<string, string>,
  mounts: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const paths = Object.keys(mounts).sort((a, b) => b.length - a.length);
  for (const [k, v] of Object.entries(env)) {
    const m = paths.find((p) => v === p || v.startsWith(`${p}/`));
    out[k] = m ? mounts[m]! + v.slice(m.length) : v;
  }
  return out;
}

/** What one container runs: the executable's script and arguments, its cwd, and its environment. */
export interface ContainerProcess {
  owner: string;
  script: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** containerPort -> local port. */
  ports: Record<number, number>;
  readinessProbe?: any;
}

/** The image's ENTRYPOINT (or the container's command) with the container's args (or the image's CMD). */
export function commandOf(container: Container, image: ImageProcess, owner: string) {
  const command: string[] = container.command ?? image.entrypoint;
  const args: string[] =
    container.args ?? (container.command ? [] : image.command.slice(image.entrypoint.length));
  if (command[0] !== 'node' || command.length !== 2)
    throw new Error(`${owner}: runs ${JSON.stringify(command)}, not \`node <script>\``);
  return { script: resolve(repoRoot, command[1]!), args: args.map(String) };
}

export interface PlanOptions {
  manifests: Manifest[];
  image: ImageProcess;
  /** The dir the volumes of every container are made under. */
  scratch: string;
}

/**
 * The process of one workload's (single) container, with Kubernetes' wiring mapped locally: its ports to free
 * local ports (`portEnv`), ELIGO_BIND_HOST to 127.0.0.1 (the pod's own address), its mounts to temp dirs and
 * every Service address to the local port behind it.
 */
export function planContainer(
  workload: Manifest,
  options: PlanOptions,
  targets: ServiceTarget[],
  localPorts: Record<string, Record<number, number>>,
): ContainerProcess {
  const owner = `${workload.kind} ${workload.metadata.name}`;
  const pod = workload.spec.template.spec;
  if (pod.containers.length !== 1)
    throw new Error(`${owner} has ${pod.containers.length} containers, not one`);
  const container = pod.containers[0];
  const { script, args } = commandOf(container, options.image, owner);
  let env = containerEnv(options.manifests, container, options.image, owner);
  const ports = localPorts[workload.metadata.name] ?? {};
  for (const p of container.ports ?? []) {
    const variable = portEnv[p.name];
    if (!variable)
      throw new Error(
        `${owner} declares port ${p.name} (${p.containerPort}): no listener known by that name`,
      );
    if (env[variable] !== String(p.containerPort))
      throw new Error(
        `${owner} declares ${p.name} on ${p.containerPort} but the process listens on ${variable}=${env[variable]}`,
      );
    env[variable] = String(ports[p.containerPort]);
  }
  env.ELIGO_BIND_HOST = '127.0.0.1';
  const mounts = materializeVolumes(
    options.manifests,
    pod,
    container,
    mkdtempSync(join(options.scratch, `${workload.metadata.name}-`)),
    owner,
  );
  env = mapMountPaths(env, mounts);
  env = rewriteServiceAddresses(
    env,
    targets,
    (d, cp) => {
      const port = localPorts[d]?.[cp];
      if (port === undefined) throw new Error(`${owner}: no local port for ${d}:${cp}`);
      return port;
    },
    owner,
  );
  const cwd = options.image.workdir === '/app' ? repoRoot : options.image.workdir;
  return { owner, script, args, cwd, env, ports, readinessProbe: container.readinessProbe };
}

/** A free local port for every declared container port of every Deployment. */
export async function allocatePorts(manifests: Manifest[]): Promise<Record<string, Record<number, number>>> {
  const out: Record<string, Record<number, number>> = {};
  for (const d of byKind(manifests, 'Deployment')) {
    const ports: Record<number, number> = {};
    for (const c of d.spec.template.spec.containers)
      for (const p of c.ports ?? []) ports[p.containerPort] = await freePort();
    out[d.metadata.name] = ports;
  }
  return out;
}

/** Helm's hook order: weight, then name (the Jobs here are one kind). */
export function hookOrder(jobs: Manifest[]): Manifest[] {
  const weight = (m: Manifest) => Number(m.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
  return [...jobs].sort((a, b) => weight(a) - weight(b) || a.metadata.name.localeCompare(b.metadata.name));
}

/** grpc.health.v1.Health/Check with the empty service name (what a native gRPC probe asks): true on SERVING. */
export function grpcServing(port: number): Promise<boolean> {
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((done) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      () => Buffer.alloc(0),
      (b: Buffer) => b,
      Buffer.alloc(0),
      { deadline: Date.now() + 2000 },
      (err, res) => {
        client.close();
        // HealthCheckResponse { status = 1 (SERVING) }: field 1, varint 1.
        done(!err && res !== undefined && res.equals(Buffer.from([0x08, 0x01])));
      },
    );
  });
}

/** Passes the container's readinessProbe (httpGet or grpc) against its local ports once. */
export async function probeOnce(
  proc: ContainerProcess,
  containerPorts: { name: string; containerPort: number }[],
) {
  const probe = proc.readinessProbe;
  if (!probe) throw new Error(`${proc.owner} has no readinessProbe`);
  const local = (port: number | string) => {
    const cp = typeof port === 'string' ? containerPorts.find((p) => p.name === port)?.containerPort : port;
    const l = cp === undefined ? undefined : proc.ports[cp];
    if (l === undefined)
      throw new Error(`${proc.owner}: the probe's port ${port} is no declared container port`);
    return l;
  };
  if (probe.httpGet) {
    try {
      const res = await fetch(`http://127.0.0.1:${local(probe.httpGet.port)}${probe.httpGet.path ?? '/'}`);
      return res.status >= 200 && res.status < 400;
    } catch {
      return false;
    }
  }
  if (probe.grpc) return grpcServing(local(probe.grpc.port));
  throw new Error(`${proc.owner}: readinessProbe not understood: ${JSON.stringify(probe)}`);
}

export function scratchDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'eligo-chart-run-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
