import {
  componentLogger,
  type ModuleDefinition,
  type ModuleFactory,
  type Subscription,
} from '@eligo/runtime';
import { AuthCache } from './auth/auth-cache';
import { createAuthenticator } from './auth/authenticator';
import { listenForRevocations } from './events/consumers';
import { closeServiceClients, createServiceClients } from './clients/clients';
import { createDocumentsClient } from './clients/documents.client';
import { moduleInfoReader } from './clients/module-info';
import { createNotifierClient } from './clients/notifier.client';
import { createParkedEventsClient } from './clients/parked-events.client';
import { createOrganizationsClient } from './clients/organizations.client';
import { createProgramsClient } from './clients/programs.client';
import { createReportsClient } from './clients/reports.client';
import { createVerificationClient } from './clients/verification.client';
import { loadGatewayConfig } from './config';
import { createStaffOidc } from './staff/oidc';
import { gatewayGrpcService } from './grpc/gateway.handlers';
import { mountRest } from './http/rest-app';
import { createGatewayData } from './gateway-data';

/** The gateway calls every service; in one process they start first, otherwise it needs their addresses. */
export const dependsOn = [
  'programs',
  'verification',
  'documents',
  'organizations',
  'reports',
  'notifier',
] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadGatewayConfig(config);
  const clientOptions = {
    deadlineMs: config.grpc.deadlineMs,
    metrics: deps.metrics,
    module: 'gateway',
    internalToken: deps.internalToken,
    logger: deps.logger,
  };
  const clients = createServiceClients(deps, clientOptions);
  const programs = createProgramsClient(clients.programs);
  const organizations = createOrganizationsClient(clients.organizations);
  const verification = createVerificationClient(clients.verification);
  const documents = createDocumentsClient(clients.documents);
  const notifier = createNotifierClient(clients.notifier);
  const parkedEvents = createParkedEventsClient(deps, clientOptions);
  const reports = createReportsClient(clients.reports, own.reportDownloadDeadlineMs);
  const data = createGatewayData(deps, {
    poolMax: own.poolMax,
    preparedStatements: config.database.preparedStatements,
    lockMs: own.idempotencyLockMs,
    limits: own.rateLimits,
    staff: own.staff,
  });
  const authenticator = createAuthenticator({
    operatorToken: deps.adminToken,
    authenticate: programs.authenticate,
    cache: new AuthCache({ ttlMs: own.authCacheMs }),
    staff: data.staff,
  });
  const info = deps.buildInfo();
  let revocations: Subscription | undefined;
  return {
    name: 'gateway',
    dependsOn,
    grpcServices: [gatewayGrpcService(deps)],
    mountHttp: (app) =>
      mountRest(app, {
        logger: deps.logger,
        publicBaseUrl: config.http.publicBaseUrl,
        staffOidc: own.staffOidc && createStaffOidc(own.staffOidc, config.http.publicBaseUrl),
        bodyLimit: config.http.bodyLimit,
        version: info.version,
        gitCommit: info.gitCommit,
        modules: moduleInfoReader(clients, own.infoDeadlineMs),
        programs,
        organizations,
        verification,
        documents,
        notifier,
        parkedEvents,
        reports,
        authenticator,
        importMaxBytes: own.importMaxBytes,
        importBatchDeadlineMs: own.importBatchDeadlineMs,
        idempotency: data.store,
        idempotencyLockMs: own.idempotencyLockMs,
        rateLimits: data.limits,
        trustProxy: own.trustProxy,
      }),
    migrate: () => data.migrate(),
    start: async () => {
      await data.start();
      revocations = await listenForRevocations({
        bus: deps.bus,
        logger: componentLogger(deps.logger, 'auth-cache'),
        onRevoked: (tokenId) => authenticator.forgetTokenId(tokenId),
      });
    },
    stop: async () => {
      await revocations?.stop();
      closeServiceClients(clients);
      parkedEvents.close();
      await data.stop();
    },
    ready: () => data.ready(),
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
