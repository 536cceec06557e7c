import { programsV1 } from '@eligo/proto';
import {
  createClient,
  createServiceModule,
  type Knex,
  type ModuleDefinition,
  type ModuleFactory,
} from '@eligo/runtime';
import { migrationsFor } from '../migrations';
import { createOidcClient } from './adapters/oidc-client';
import { createAppContext, type AppContext } from './app/context';
import { programRulesFromService } from './app/ports';
import { sweepSsoSignOns } from './app/sso-sign-on';
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
  // Single sign-on: the OpenID client work, with one circuit breaker per provider.
  const oidc = createOidcClient({
    ...own.sso,
    metrics: deps.metrics,
    logger: deps.logger,
  });
  // One app context per module, shared by the gRPC handlers and the jobs.
  let app: AppContext | undefined;
  const appOf = (db: Knex) =>
    (app ??= createAppContext({
      db,
      schema: own.schema,
      encryptionKey: deps.encryptionKey,
      programs: programRulesFromService(programs, own.programCacheMs),
      addSchoolDailyLimit: own.addSchoolDailyLimit,
      oidc,
      allowCidrs: own.sso.allowCidrs,
    }));
  const module = createServiceModule(
    {
      name: 'organizations',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations: migrationsFor({ seed: own.seed, logger: deps.logger }),
      grpcServices: (context) => [organizationsGrpcService(context, appOf(context.db))],
      // Sign-ons nobody finished: deleted an hour after they lapsed, a bounded batch at a time.
      jobs: (context) => [
        { name: 'sso-sign-on-cleanup', intervalMs: 60_000, run: () => sweepSsoSignOns(appOf(context.db)) },
      ],
    },
    config,
    deps,
  );
  return {
    ...module,
    async stop() {
      programs.close();
      await module.stop();
      oidc.shutdown();
    },
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
