import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { loadProgramsConfig } from './config';
import { programsGrpcService } from './grpc/programs.handlers';

/** Modules the programs service calls: it owns accounts, tokens and programs; calls no other service. */
export const dependsOn = [] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadProgramsConfig(config);
  return createServiceModule(
    {
      name: 'programs',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [programsGrpcService(context)],
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };
