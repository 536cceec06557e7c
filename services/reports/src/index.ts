import { programsV1, verificationV1 } from '@eligo/proto';
import {
  createClient,
  createEncryptedObjectStore,
  createServiceModule,
  type Knex,
  type ModuleDefinition,
  type ModuleFactory,
} from '@eligo/runtime';
import { migrations } from '../migrations';
import type { AppContext } from './app/context';
import { generateNextReport } from './app/generate-report';
import { programsPort, verificationPort } from './app/ports';
import { purgeExpiredReports } from './app/read-reports';
import { REPORT_PART_BYTES, REPORTS_PURPOSE } from './app/report-parts';
import { reverifyPendingItems } from './app/reverify';
import { sweepReportOrphans } from './app/sweep-orphans';
import { loadReportsConfig } from './config';
import { reportsConsumers } from './events/consumers';
import { reportsGrpcService } from './grpc/reports.handlers';

/** Modules the reports service calls: it reads verifications (PII only on request) and programs. */
export const dependsOn = ['verification', 'programs'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadReportsConfig(config);
  const clientOptions = {
    deadlineMs: own.dependencyDeadlineMs,
    metrics: deps.metrics,
    module: 'reports',
    internalToken: deps.internalToken,
    logger: deps.logger,
  };
  // Addresses are read at the first call: in one process the gRPC port is known only once it listens.
  const verification = createClient(
    verificationV1.VerificationServiceClient,
    () => deps.addressOf('verification'),
    clientOptions,
  );
  const programs = createClient(
    programsV1.ProgramsServiceClient,
    () => deps.addressOf('programs'),
    clientOptions,
  );
  // One app context per module, shared by the gRPC handlers, the consumers and the jobs.
  let app: AppContext | undefined;
  const appOf = (db: Knex): AppContext =>
    (app ??= {
      db,
      schema: own.schema,
      // Report files hold personal data: encrypted at rest, with a key derived for reports only.
      store: createEncryptedObjectStore({
        inner: deps.objectStore,
        masterKey: deps.encryptionKey,
        purpose: REPORTS_PURPOSE,
      }),
      rawStore: deps.objectStore,
      verification: verificationPort(verification, own.piiStreamDeadlineMs),
      programs: programsPort(programs),
      logger: deps.logger,
      leaseMs: own.leaseMs,
      retentionMs: own.retentionMs,
      orphanGraceMs: own.orphanGraceMs,
      reportBatchRows: own.batchRows,
      reportWorker: {
        databaseUrl: deps.databaseUrl,
        heapMb: own.workerHeapMb,
        masterKey: deps.encryptionKey,
        partBytes: REPORT_PART_BYTES,
      },
      reverify: { maxIds: own.reverifyMaxIds, concurrency: own.reverifyConcurrency },
    });
  const module = createServiceModule(
    {
      name: 'reports',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [reportsGrpcService(context, appOf(context.db))],
      consumers: (context) => reportsConsumers(appOf(context.db), own.projectionFromBeginning),
      jobs: (context) => [
        {
          name: 'reports-generate',
          intervalMs: own.pollMs,
          run: () => generateNextReport(appOf(context.db)),
        },
        {
          name: 'reports-reverify',
          intervalMs: own.pollMs,
          run: () => reverifyPendingItems(appOf(context.db)),
        },
        {
          name: 'reports-retention',
          intervalMs: own.purgeIntervalMs,
          run: () => purgeExpiredReports(appOf(context.db)),
        },
        {
          name: 'reports-orphan-sweep',
          intervalMs: own.orphanSweepMs,
          run: () => sweepReportOrphans(appOf(context.db)),
        },
      ],
    },
    config,
    deps,
  );
  return {
    ...module,
    async stop() {
      await module.stop();
      verification.close();
      programs.close();
    },
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
