import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { loadDocumentsConfig } from './config';
import { documentsGrpcService } from './grpc/documents.handlers';

/** Modules the documents service calls: it moves verifications forward after review and reads review settings of programs. */
export const dependsOn = ['verification', 'programs'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadDocumentsConfig(config);
  return createServiceModule(
    {
      name: 'documents',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [documentsGrpcService(context)],
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };
