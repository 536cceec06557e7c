import {
  documentsV1Lean,
  notifierV1,
  organizationsV1,
  programsV1,
  reportsV1,
  verificationV1,
} from '@eligo/proto';
import { createClient, type GrpcClientOptions, type ModuleDeps } from '@eligo/runtime';

/**
 * The gateway's gRPC clients, built once at module creation; the runtime's client factory gives each a
 * deadline on every call, retries on UNAVAILABLE only and a circuit breaker. Later issues wrap each in a
 * <service>.client.ts with one typed method per RPC. Addresses are read at the first call: in this process
 * the gRPC server's port is only known once it listens (port 0 in tests).
 */
export function createServiceClients(deps: ModuleDeps, options: GrpcClientOptions) {
  return {
    programs: createClient(programsV1.ProgramsServiceClient, () => deps.addressOf('programs'), options),
    verification: createClient(
      verificationV1.VerificationServiceClient,
      () => deps.addressOf('verification'),
      options,
    ),
    documents: createClient(
      documentsV1Lean.DocumentsServiceClient,
      () => deps.addressOf('documents'),
      options,
    ),
    organizations: createClient(
      organizationsV1.OrganizationsServiceClient,
      () => deps.addressOf('organizations'),
      options,
    ),
    reports: createClient(reportsV1.ReportsServiceClient, () => deps.addressOf('reports'), options),
    notifier: createClient(notifierV1.NotifierServiceClient, () => deps.addressOf('notifier'), options),
  };
}

export type ServiceClients = ReturnType<typeof createServiceClients>;

export function closeServiceClients(clients: ServiceClients): void {
  for (const client of Object.values(clients)) client.close();
}
