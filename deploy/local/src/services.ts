import { ENV } from './config';
import { startKafkaContainer, startMinioContainer, startPostgresContainer } from './containers';
import { InfraError } from './errors';
import { kafkaAnswers, startLocalKafka } from './kafka';
import { minioAnswers, startLocalMinio } from './minio';
import { postgresAnswers, startLocalPostgres } from './postgres';
import type { ServiceName, ServiceRecord, StartContext } from './types';

/** One server, with its three ways of being had: given by the environment, a container, a local process. */
export interface ServiceDef {
  name: ServiceName;
  /** The variables of the environment contract that this server provides. */
  envKeys: readonly string[];
  /** The server given by the environment, if it is. */
  given(env: NodeJS.ProcessEnv): Record<string, string> | undefined;
  startContainer(ctx: StartContext): Promise<ServiceRecord>;
  startLocal(ctx: StartContext): Promise<ServiceRecord>;
  answers(env: Record<string, string>): Promise<boolean>;
}

function pick(env: NodeJS.ProcessEnv, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value) out[key] = value;
  }
  return out;
}

export const SERVICES: Readonly<Record<ServiceName, ServiceDef>> = {
  postgres: {
    name: 'postgres',
    envKeys: [ENV.databaseUrl],
    given: (env) => (env[ENV.databaseUrl] ? pick(env, [ENV.databaseUrl]) : undefined),
    startContainer: startPostgresContainer,
    startLocal: startLocalPostgres,
    answers: (env) => postgresAnswers(env[ENV.databaseUrl] ?? ''),
  },
  kafka: {
    name: 'kafka',
    envKeys: [ENV.kafkaBrokers, ENV.kafkaVersion],
    given: (env) => (env[ENV.kafkaBrokers] ? pick(env, [ENV.kafkaBrokers, ENV.kafkaVersion]) : undefined),
    startContainer: startKafkaContainer,
    startLocal: startLocalKafka,
    answers: (env) => kafkaAnswers(env[ENV.kafkaBrokers] ?? ''),
  },
  minio: {
    name: 'minio',
    envKeys: [ENV.s3Endpoint, ENV.s3AccessKey, ENV.s3SecretKey],
    given: (env) => {
      if (!env[ENV.s3Endpoint]) return undefined;
      if (!env[ENV.s3AccessKey] || !env[ENV.s3SecretKey]) {
        throw new InfraError(
          `${ENV.s3Endpoint} is set, so ${ENV.s3AccessKey} and ${ENV.s3SecretKey} must be too`,
        );
      }
      return pick(env, [ENV.s3Endpoint, ENV.s3AccessKey, ENV.s3SecretKey]);
    },
    startContainer: startMinioContainer,
    startLocal: startLocalMinio,
    answers: (env) => minioAnswers(env[ENV.s3Endpoint] ?? ''),
  },
};
