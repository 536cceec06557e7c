import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { loadReportsConfig } from './config';
import { reportsGrpcService } from './grpc/reports.handlers';

/** Modules the reports service calls: it reads verifications (PII only on request) and programs. */
export const dependsOn = ['verification', 'programs'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadReportsConfig(config);
  return createServiceModule(
    {
      name: 'reports',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [reportsGrpcService(context)],
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };
