import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { createAppContext } from './app/context';
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
      grpcServices: (context) => {
        const app = createAppContext({
          db: context.db,
          schema: own.schema,
          encryptionKey: deps.encryptionKey,
          oauthTokenTtlSeconds: own.oauthTokenTtlSeconds,
          webhookAllowCidrs: own.webhookAllowCidrs,
        });
        return [programsGrpcService(context, app)];
      },
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };

// The vocabulary of programs, one copy for the whole codebase (the gateway's OpenAPI enums, other services).
export { DEFAULT_ERROR_MESSAGES, ERROR_IDS, isErrorId, type ErrorId } from './domain/error-ids';
export { SEGMENTS, segmentNames, type Segment } from './domain/segments';
export { ESTIMATED_REVIEW_TIMES, MAX_REVIEW_TIMES, ORGANIZATION_TYPES } from './domain/program';
