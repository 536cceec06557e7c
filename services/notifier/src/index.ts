import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { loadNotifierConfig } from './config';
import { notifierGrpcService } from './grpc/notifier.handlers';

/** Modules the notifier service calls: it reads webhook settings of programs and verifications to refire. */
export const dependsOn = ['programs', 'verification'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadNotifierConfig(config);
  return createServiceModule(
    {
      name: 'notifier',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [notifierGrpcService(context)],
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };
