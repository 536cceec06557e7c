import { organizationsV1, programsV1 } from '@eligo/proto';
import {
  REWARD_CLAIM_BOUND_MS,
  REWARD_RECONCILE_INTERVAL_MS,
  reconcileRewardClaims,
} from './app/reward-reconcile';
import {
  createClient,
  createFieldCipher,
  createServiceModule,
  type Knex,
  type ModuleDefinition,
  type ModuleFactory,
} from '@eligo/runtime';
import { migrations } from '../migrations';
import { createAppContext, type AppContext } from './app/context';
import { sweepExpired } from './app/sweep';
import { organizationsPort, programsPort, rewardClaimsPort } from './app/ports';
import { createInstantSources } from './app/sources/sources';
import { matchEligibilityList } from './app/eligibility-list-match';
import { INSTANT_SOURCE_SECRET_PURPOSE } from './app/sources/source-secret';
import { loadVerificationConfig } from './config';
import { verificationConsumers } from './events/consumers';
import { verificationGrpcService } from './grpc/verification.handlers';

/** Modules the verification service calls: it reads program settings and checks organizations. */
export const dependsOn = ['programs', 'organizations'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadVerificationConfig(config);
  // Addresses are read at the first call: in one process the gRPC port is known only once it listens.
  const clientOptions = {
    deadlineMs: own.dependencyDeadlineMs,
    metrics: deps.metrics,
    module: 'verification',
    internalToken: deps.internalToken,
    logger: deps.logger,
  };
  const programs = createClient(
    programsV1.ProgramsServiceClient,
    () => deps.addressOf('programs'),
    clientOptions,
  );
  const rewardClaims = rewardClaimsPort(programs);
  const organizations = createClient(
    organizationsV1.OrganizationsServiceClient,
    () => deps.addressOf('organizations'),
    clientOptions,
  );
  // One app context per module, shared by the gRPC handlers, the consumers and the jobs.
  let app: AppContext | undefined;
  // The HTTP source's secret arrives sealed by the programs service (same master key, same purpose).
  const sourceSecrets = createFieldCipher(deps.encryptionKey, INSTANT_SOURCE_SECRET_PURPOSE);
  const sources = createInstantSources({
    deadlineMs: own.instantSourceDeadlineMs,
    budgetMs: own.instantSourcesBudgetMs,
    allowCidrs: own.webhookAllowCidrs,
    // The program's customer eligibility list (one indexed query on the verification schema).
    matchList: (programId, subject) => {
      if (!app) throw new Error('the verification app context is not built yet');
      return matchEligibilityList(app, programId, subject);
    },
    metrics: deps.metrics,
    logger: deps.logger,
  });
  const appOf = (db: Knex) =>
    (app ??= createAppContext({
      db,
      schema: own.schema,
      encryptionKey: deps.encryptionKey,
      programs: programsPort(programs, own.programCacheMs, (sealed, programId) =>
        sourceSecrets.decrypt(Buffer.from(sealed), programId),
      ),
      organizations: organizationsPort(organizations, own.programCacheMs),
      sources,
      expiryMs: own.expiryMs,
    }));
  const module = createServiceModule(
    {
      name: 'verification',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [verificationGrpcService(context, appOf(context.db))],
      consumers: (context) => verificationConsumers(appOf(context.db)),
      jobs: (context) => [
        {
          name: 'verification-expiry',
          intervalMs: own.expirySweepMs,
          run: () => sweepExpired(appOf(context.db)),
        },
        {
          name: 'reward-claims-reconcile',
          intervalMs: REWARD_RECONCILE_INTERVAL_MS,
          // Settles pool codes claimed for successes that never committed (app/reward-reconcile.ts).
          run: async () =>
            (
              await reconcileRewardClaims(appOf(context.db), {
                claims: rewardClaims,
                olderThanMs: REWARD_CLAIM_BOUND_MS,
              })
            ).more,
        },
      ],
    },
    config,
    deps,
  );
  return {
    ...module,
    async stop() {
      programs.close();
      organizations.close();
      sources.shutdown();
      await module.stop();
    },
  };
};

export const definition: ModuleDefinition = { createModule, dependsOn };
