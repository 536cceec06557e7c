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
