import { join } from 'node:path';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres';
import type { EventBus } from '../events/event-bus';
import { createInProcessEventBus } from '../events/in-process-bus';
import { createKafkaEventBus } from '../events/kafka-bus';
import { createPostgresBusLog } from '../events/postgres-bus-log';
import { componentLogger } from '../logging/logger';
import type { ObjectStore } from '../objectstore/object-store';
import { createFsObjectRouter } from '../objectstore/fs-object-router';
import { createFsObjectStore } from '../objectstore/fs-store';
import { createS3ObjectStore } from '../objectstore/s3-store';
import { loadOrCreateSecret } from './secrets';

/** The servers a process shares among its modules: the real ones when configured, embedded defaults otherwise. */
export interface Infrastructure {
  databaseUrl: string;
  bus: EventBus;
  objectStore: ObjectStore;
  /** Routes the infrastructure itself serves (the filesystem store's presigned URLs). */
  mountHttp(app: Express): void;
  stop(): Promise<void>;
}

export async function startInfrastructure(
  config: Config,
  opts: {
    logger: Logger;
    needsDb: boolean;
    /** Told when a server this process depends on fails after start (the launcher then stops non-zero). */
    fail?(err: unknown): void;
  },
): Promise<Infrastructure> {
  const log = componentLogger(opts.logger, 'infrastructure');
  const stops: (() => Promise<void>)[] = [];
  try {
    let databaseUrl = config.database.url ?? '';
    let embedded: EmbeddedPostgres | undefined;
    if (!databaseUrl && opts.needsDb) {
      embedded = await startEmbeddedPostgres(join(config.dataDir), componentLogger(opts.logger, 'postgres'), {
        onExit: opts.fail,
        avoidPorts: [config.http.port, config.grpc.port],
      });
      databaseUrl = embedded.url;
      stops.push(() => embedded!.stop());
    }

    const bus: EventBus = config.kafka.brokers
      ? createKafkaEventBus({
          brokers: config.kafka.brokers,
          clientId: config.kafka.clientId,
          groupPrefix: config.kafka.groupPrefix,
          fetch: config.kafka.fetch,
          security: config.kafka.security,
          logger: componentLogger(opts.logger, 'kafka'),
          onConsumerFailure: opts.fail,
        })
      : createInProcessEventBus({
          logger: componentLogger(opts.logger, 'event-bus'),
          // In the database the process already has, so that events handed over by the outbox relay but not
          // yet handled survive a restart or a kill, as they would in Kafka.
          log: databaseUrl
            ? createPostgresBusLog({ url: databaseUrl, logger: componentLogger(opts.logger, 'event-log') })
            : undefined,
        });
    stops.push(() => bus.close());
    log.info(
      {
        kind: config.kafka.brokers ? 'kafka' : 'in-process',
        durable: Boolean(config.kafka.brokers || databaseUrl),
      },
      'event bus ready',
    );

    let objectStore: ObjectStore;
    let mountHttp: (app: Express) => void = () => undefined;
    if (config.s3) {
      objectStore = createS3ObjectStore({
        endpoint: config.s3.endpoint,
        accessKey: config.s3.accessKey,
        secretKey: config.s3.secretKey,
        bucket: config.s3.bucket,
        region: config.s3.region,
        pathStyle: config.s3.pathStyle,
      });
    } else {
      const fsStore = createFsObjectStore({
        root: join(config.dataDir, 'objects'),
        publicBaseUrl: config.http.publicBaseUrl,
        signingSecret: loadOrCreateSecret(config.dataDir, 'object-signing-secret'),
      });
      objectStore = fsStore;
      mountHttp = (app) => app.use(createFsObjectRouter(fsStore));
    }
    await objectStore.ensureBucket();
    log.info({ kind: config.s3 ? 's3' : 'filesystem' }, 'object store ready');

    return {
      databaseUrl,
      bus,
      objectStore,
      mountHttp,
      stop: async () => {
        for (const stop of stops.reverse()) await stop();
      },
    };
  } catch (err) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw err;
  }
}
