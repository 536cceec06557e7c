import { randomBytes } from 'node:crypto';
import { ENV } from './config';
import { testcontainers, withTimeout } from './container-runtime';
import { CLUSTER_SETTINGS, kafkaAnswers } from './kafka';
import { timed } from './log';
import { MINIO_ACCESS_KEY, minioAnswers } from './minio';
import { freePort } from './ports';
import { postgresAnswers } from './postgres';
import type { ServiceRecord, StartContext } from './types';
import { waitUntilReady } from './wait';

/**
 * The container step (Testcontainers), tried when a container runtime answers (container-runtime.ts). It
 * cannot be exercised on a machine without one.
 */

// Same major as the embedded binaries, so both paths run the same Postgres.
export const POSTGRES_IMAGE = 'postgres:17-alpine';
// MinIO publishes no new images; this is the last community release tag we know of.
export const MINIO_IMAGE = 'minio/minio:RELEASE.2025-04-22T22-12-26Z';
const kafkaImage = (version: string): string => `apache/kafka:${version}`;

const START_TIMEOUT_MS = 10 * 60_000; // includes pulling the image
const LABEL = 'dev.eligo.local-infra';

/**
 * Testcontainers' reaper (Ryuk) removes a session's containers when the process that started them exits. Right
 * for in-process use; wrong for `up`, whose containers must outlive the CLI until `down` removes them.
 */
function configureReaper(ctx: StartContext): void {
  if (ctx.keepRunning) process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
}

function record(
  service: ServiceRecord['service'],
  containerId: string,
  env: Record<string, string>,
  ports: Record<string, number>,
  version?: string,
): ServiceRecord {
  return {
    service,
    via: 'container',
    containerId,
    env,
    ports,
    ...(version ? { version } : {}),
    startedAt: new Date().toISOString(),
  };
}

export async function startPostgresContainer(ctx: StartContext): Promise<ServiceRecord> {
  configureReaper(ctx);
  const { GenericContainer, Wait } = await testcontainers();
  const password = randomBytes(12).toString('hex');
  const container = await timed(ctx.log, `start container ${POSTGRES_IMAGE}`, () =>
    withTimeout(
      new GenericContainer(POSTGRES_IMAGE)
        .withEnvironment({ POSTGRES_PASSWORD: password })
        .withExposedPorts(5432)
        .withTmpFs({ '/var/lib/postgresql/data': 'rw' })
        .withCommand([
          'postgres',
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'max_connections=200',
        ])
        .withLabels({ [LABEL]: 'postgres' })
        // The entrypoint starts the server twice (init, then for real): wait for the second.
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .withStartupTimeout(120_000)
        .start(),
      START_TIMEOUT_MS,
      `starting ${POSTGRES_IMAGE}`,
    ),
  );
  const port = container.getMappedPort(5432);
  const url = `postgres://postgres:${password}@${container.getHost()}:${port}/postgres`;
  await waitUntilReady('postgres container', () => postgresAnswers(url), { timeoutMs: 30_000 });
  return record('postgres', container.getId(), { [ENV.databaseUrl]: url }, { postgres: port });
}

export async function startKafkaContainer(ctx: StartContext): Promise<ServiceRecord> {
  configureReaper(ctx);
  const tc = await testcontainers();
  const host = (await tc.getContainerRuntimeClient()).info.containerRuntime.host;
  // The advertised address must be known before the broker starts, so the host port is chosen here and
  // mapped to the same port inside. Inter-broker traffic stays on an internal listener.
  const port = await freePort();
  const settings: Record<string, string> = {
    ...CLUSTER_SETTINGS,
    'controller.quorum.voters': '1@localhost:9093',
    listeners: `PLAINTEXT://0.0.0.0:${port},BROKER://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093`,
    'advertised.listeners': `PLAINTEXT://${host}:${port},BROKER://localhost:9092`,
    'inter.broker.listener.name': 'BROKER',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,BROKER:PLAINTEXT',
  };
  // The apache/kafka image reads KAFKA_<PROPERTY> with dots as underscores.
  const env = Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [`KAFKA_${k.replace(/\./g, '_').toUpperCase()}`, v]),
  );
  const image = kafkaImage(ctx.kafkaVersion);
  const container = await timed(ctx.log, `start container ${image}`, () =>
    withTimeout(
      new tc.GenericContainer(image)
        .withEnvironment(env)
        .withExposedPorts({ container: port, host: port })
        .withLabels({ [LABEL]: 'kafka' })
        .withWaitStrategy(tc.Wait.forListeningPorts())
        .withStartupTimeout(120_000)
        .start(),
      START_TIMEOUT_MS,
      `starting ${image}`,
    ),
  );
  const brokers = `${host}:${port}`;
  await waitUntilReady('Kafka container', () => kafkaAnswers(brokers), {
    timeoutMs: 120_000,
    intervalMs: 500,
  });
  return record(
    'kafka',
    container.getId(),
    { [ENV.kafkaBrokers]: brokers, [ENV.kafkaVersion]: ctx.kafkaVersion },
    { broker: port },
    ctx.kafkaVersion,
  );
}

export async function startMinioContainer(ctx: StartContext): Promise<ServiceRecord> {
  configureReaper(ctx);
  const { GenericContainer, Wait } = await testcontainers();
  const secret = randomBytes(16).toString('hex');
  const container = await timed(ctx.log, `start container ${MINIO_IMAGE}`, () =>
    withTimeout(
      new GenericContainer(MINIO_IMAGE)
        .withEnvironment({
          MINIO_ROOT_USER: MINIO_ACCESS_KEY,
          MINIO_ROOT_PASSWORD: secret,
          MINIO_UPDATE: 'off',
        })
        .withCommand(['server', '/data', '--console-address', ':9001'])
        .withExposedPorts(9000, 9001)
        .withLabels({ [LABEL]: 'minio' })
        .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
        .withStartupTimeout(120_000)
        .start(),
      START_TIMEOUT_MS,
      `starting ${MINIO_IMAGE}`,
    ),
  );
  const endpoint = `http://${container.getHost()}:${container.getMappedPort(9000)}`;
  await waitUntilReady('MinIO container', () => minioAnswers(endpoint), { timeoutMs: 30_000 });
  return record(
    'minio',
    container.getId(),
    { [ENV.s3Endpoint]: endpoint, [ENV.s3AccessKey]: MINIO_ACCESS_KEY, [ENV.s3SecretKey]: secret },
    { api: container.getMappedPort(9000), console: container.getMappedPort(9001) },
  );
}
