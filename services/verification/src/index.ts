import { createServiceModule, type ModuleDefinition, type ModuleFactory } from '@eligo/runtime';
import { migrations } from '../migrations';
import { loadVerificationConfig } from './config';
import { verificationGrpcService } from './grpc/verification.handlers';

/** Modules the verification service calls: it reads program settings and checks organizations. */
export const dependsOn = ['programs', 'organizations'] as const;

export const createModule: ModuleFactory = (config, deps) => {
  const own = loadVerificationConfig(config);
  return createServiceModule(
    {
      name: 'verification',
      dependsOn,
      schema: own.schema,
      poolMax: own.poolMax,
      migrations,
      grpcServices: (context) => [verificationGrpcService(context)],
    },
    config,
    deps,
  );
};

export const definition: ModuleDefinition = { createModule, dependsOn };
