import { programsV1 } from '@eligo/proto';
import { createClient, createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrationsFor } from '../migrations';
import { createAppContext } from './app/context';
import { programRulesFromService } from './app/ports';
import { loadOrganizationsConfig } from './config';
import { organizationsGrpcService } from './grpc/organizations.handlers';

/** Modules the organizations service calls: it reads the organization eligibility rules of programs. */
export const dependsOn = ['programs'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadOrganizationsConfig(config);
  // The address is read at the first call: in one process the gRPC port is known only once it listens.
  const programs = createClient(programsV1.ProgramsServiceClient, () => deps.addressOf('programs'), {
    deadlineMs: config.grpc.deadlineMs,
    metrics: deps.metrics,
    module: 'organizations',
    internalToken: deps.internalToken,
    logger: deps.logger,
  });
  const module = createServiceModule(
    {
      name: 'organizations',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations: migrationsFor({ seed: own.seed, logger: deps.logger }),
      grpcServices: (context) => {
        const app = createAppContext({
          db: context.db,
          schema: own.schema,
          encryptionKey: deps.encryptionKey,
          programs: programRulesFromService(programs, own.programCacheMs),
          addSchoolDailyLimit: own.addSchoolDailyLimit,
        });
        return [organizationsGrpcService(context, app)];
      },
    },
    config,
    deps,
  );
  return {
    ...module,
    async stop() {
      programs.close();
      await module.stop();
    },
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
