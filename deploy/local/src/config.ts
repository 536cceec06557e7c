import os from 'node:os';
import path from 'node:path';
import { InfraError } from './errors';
import { SERVICE_NAMES, type ServiceName } from './types';

/** The environment contract that consumers (jest suites, developers' shells) read. */
export const ENV = {
  databaseUrl: 'ELIGO_TEST_DATABASE_URL',
  kafkaBrokers: 'ELIGO_TEST_KAFKA_BROKERS',
  kafkaVersion: 'ELIGO_TEST_KAFKA_VERSION',
  s3Endpoint: 'ELIGO_TEST_S3_ENDPOINT',
  s3AccessKey: 'ELIGO_TEST_S3_ACCESS_KEY',
  s3SecretKey: 'ELIGO_TEST_S3_SECRET_KEY',
} as const;

/** When all of these are set, the servers are given and the harness starts nothing. */
export const REQUIRED_ENV: readonly string[] = [
  ENV.databaseUrl,
  ENV.kafkaBrokers,
  ENV.s3Endpoint,
  ENV.s3AccessKey,
  ENV.s3SecretKey,
];

export const DEFAULT_KAFKA_VERSION = '3.9.2';

export interface HarnessConfig {
  cacheDir: string;
  kafkaVersion: string;
  /** Whether the Kafka version was asked for (flag or ELIGO_KAFKA_VERSION) rather than defaulted. */
  kafkaVersionExplicit: boolean;
  /** Whether the Testcontainers step may be tried (ELIGO_INFRA_CONTAINERS=off skips it). */
  containers: boolean;
}

export function cacheDirFrom(env: NodeJS.ProcessEnv): string {
  return env.ELIGO_CACHE_DIR ? path.resolve(env.ELIGO_CACHE_DIR) : path.join(os.homedir(), '.cache', 'eligo');
}

export function harnessConfig(
  env: NodeJS.ProcessEnv,
  overrides: { kafkaVersion?: string } = {},
): HarnessConfig {
  const asked = overrides.kafkaVersion ?? env.ELIGO_KAFKA_VERSION;
  const kafkaVersion = asked ?? DEFAULT_KAFKA_VERSION;
  if (!/^\d+\.\d+\.\d+$/.test(kafkaVersion)) {
    throw new InfraError(
      `Kafka version "${kafkaVersion}" is not of the form X.Y.Z (e.g. ${DEFAULT_KAFKA_VERSION})`,
    );
  }
  return {
    cacheDir: cacheDirFrom(env),
    kafkaVersion,
    kafkaVersionExplicit: asked !== undefined,
    containers: !['off', '0', 'false', 'no'].includes((env.ELIGO_INFRA_CONTAINERS ?? '').toLowerCase()),
  };
}

/** Parses `--only postgres,kafka`; an unknown name is an error rather than silently nothing. */
export function parseServices(list: string): ServiceName[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
      throw new InfraError(`unknown service "${name}": expected some of ${SERVICE_NAMES.join(', ')}`);
    }
  }
  return SERVICE_NAMES.filter((s) => names.includes(s));
}
