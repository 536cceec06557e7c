import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { loadOrganizationsConfig } from './config';
import { organizationsGrpcService } from './grpc/organizations.handlers';

/** Modules the organizations service calls: it reads the organization eligibility rules of programs. */
export const dependsOn = ['programs'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadOrganizationsConfig(config);
  return createServiceModule(
    {
      name: 'organizations',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [organizationsGrpcService(context)],
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };
