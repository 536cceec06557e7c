import type { ModuleDefinition, ModuleFactory } from '@eligo/runtime';
import { closeServiceClients, createServiceClients } from './clients/clients';
import { moduleInfoReader } from './clients/module-info';
import { loadGatewayConfig } from './config';
import { gatewayGrpcService } from './grpc/gateway.handlers';
import { mountRest } from './http/rest-app';

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
  const clients = createServiceClients(deps, {
    deadlineMs: config.grpc.deadlineMs,
    metrics: deps.metrics,
    module: 'gateway',
    logger: deps.logger,
  });
  const info = deps.buildInfo();
  return {
    name: 'gateway',
    dependsOn,
    grpcServices: [gatewayGrpcService(deps)],
    mountHttp: (app) =>
      mountRest(app, {
        logger: deps.logger,
        publicBaseUrl: config.http.publicBaseUrl,
        bodyLimit: config.http.bodyLimit,
        adminToken: deps.adminToken,
        version: info.version,
        gitCommit: info.gitCommit,
        modules: moduleInfoReader(clients, own.infoDeadlineMs),
      }),
    start: async () => undefined,
    stop: async () => closeServiceClients(clients),
    ready: async () => true,
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
