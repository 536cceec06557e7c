import { verificationV1 } from '@eligo/proto';
import {
  createClient,
  createServiceModule,
  createSignedObjectRouter,
  type Knex,
  type ModuleDefinition,
  type ModuleFactory,
} from '@eligo/runtime';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { migrations } from '../migrations';
import { createAppContext, type AppContext } from './app/context';
import { documentFileStore, REVIEW_FILES_PATH } from './app/objects';
import { verificationPort } from './app/ports';
import { runRetention } from './app/retention';
import { sweepDocumentOrphans } from './app/sweep-orphans';
import { loadDocumentsConfig } from './config';
import { documentsGrpcService } from './grpc/documents.handlers';

/**
 * Modules the documents service calls: the verification service says whether files may be sent (and carries
 * the program's test mode), and is told when they were submitted.
 */
export const dependsOn = ['verification'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadDocumentsConfig(config);
  // The address is read at the first call: in one process the gRPC port is known only once it listens.
  const verification = createClient(
    verificationV1.VerificationServiceClient,
    () => deps.addressOf('verification'),
    {
      deadlineMs: own.dependencyDeadlineMs,
      metrics: deps.metrics,
      module: 'documents',
      internalToken: deps.internalToken,
      logger: deps.logger,
    },
  );
  // Files rest encrypted; review links are served decrypted by this process (mountHttp below).
  const files = documentFileStore(deps.objectStore, deps.encryptionKey, own.reviewLinkBaseUrl);
  // One app context per module, shared by the gRPC handlers and the jobs.
  let app: AppContext | undefined;
  const appOf = (db: Knex) =>
    (app ??= createAppContext({
      db,
      schema: own.schema,
      store: files,
      incoming: deps.objectStore,
      encryptionKey: deps.encryptionKey,
      verification: verificationPort(verification),
      uploadUrlTtlMs: own.uploadUrlTtlMs,
      retentionMs: own.retentionMs,
      reviewLinkSeconds: own.reviewLinkSeconds,
      reviewClaimMs: own.reviewClaimMs,
      orphanGraceMs: own.orphanGraceMs,
    }));
  const module = createServiceModule(
    {
      name: 'documents',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [documentsGrpcService(context, appOf(context.db))],
      jobs: (context) => [
        {
          name: 'documents-retention',
          intervalMs: own.retentionSweepMs,
          run: () => runRetention(appOf(context.db)),
        },
        {
          name: 'documents-orphan-sweep',
          intervalMs: own.orphanSweepMs,
          run: () => sweepDocumentOrphans(appOf(context.db)),
        },
      ],
    },
    config,
    deps,
  );
  return {
    ...module,
    mountHttp(http) {
      // Review links are GETs; this process signs no PUT URL for it, so the upload limit is only a backstop.
      http.use(
        REVIEW_FILES_PATH,
        createSignedObjectRouter(files, { maxUploadBytes: MAX_FILE_BYTES, logger: deps.logger }),
      );
    },
    async stop() {
      verification.close();
      await module.stop();
    },
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
