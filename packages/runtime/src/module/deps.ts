import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { ModuleName } from '../config/schema';
import type { EventBus } from '../events/event-bus';
import type { ObjectStore } from '../objectstore/object-store';
import type { MetricsRegistry } from '../metrics/registry';
import type { BuildInfo } from './build-info';
import type { ParkedEventsRegistry } from './parked-events-service';

/** What the launcher hands every module's createModule(config, deps): shared infrastructure, never env. */
export interface ModuleDeps {
  logger: Logger;
  metrics: MetricsRegistry;
  /** Postgres superuser/owner URL; each module opens its own pool on its own schema with createDb. */
  databaseUrl: string;
  bus: EventBus;
  objectStore: ObjectStore;
  /** gRPC address ("host:port") of a module, in this process or elsewhere (split deployment). */
  addressOf(module: ModuleName): string;
  /** Build information of this module, for GetInfo. */
  buildInfo(): BuildInfo;
  /** The operator token (config or generated at boot). */
  adminToken: string;
  /** Token every gRPC client must send (GrpcClientOptions.internalToken); undefined when calls are open. */
  internalToken: string | undefined;
  /** Master key for PII and secrets at rest (derive per-purpose keys with createFieldCipher/deriveKey). */
  encryptionKey: Buffer;
  /** Where the module's consumers register, so that operators can list and replay what they parked. */
  parkedEvents: ParkedEventsRegistry;
  /** Reports an unrecoverable failure after start: the launcher stops the process non-zero. */
  fail(err: unknown): void;
}

export type ModuleFactory = (config: Config, deps: ModuleDeps) => import('./module').Module;

/** What the launcher knows of a module before creating it: how to create it and whom it calls. */
export interface ModuleDefinition {
  createModule: ModuleFactory;
  /** Modules it calls over gRPC: started first in the same process, or reached at ELIGO_<NAME>_GRPC_ADDRESS. */
  dependsOn: readonly ModuleName[];
}
