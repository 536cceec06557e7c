import type { Express } from 'express';
import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';

/** One gRPC service a module serves: the generated definition and its implementation. */
export interface GrpcServiceBinding {
  /** Fully qualified name, e.g. "eligo.programs.v1.ProgramsService" (health status and reflection use it). */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/**
 * A module is one service's unit of deployment (docs/architecture.md, "Modules and targets"): the launcher
 * starts modules named by --target in dependency order, hosts their gRPC services on one server and stops the
 * process when one fails.
 */
export interface Module {
  name: string;
  /** Modules that must be started first when they run in the same process. */
  dependsOn: readonly string[];
  grpcServices: readonly GrpcServiceBinding[];
  /** Mounts HTTP routes (only the gateway has any). Called before the HTTP server listens. */
  mountHttp?(app: Express): void;
  /** Applies the module's schema migrations (also done by start); `eligo migrate` calls only this. */
  migrate?(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** True while the module can take traffic (its database and brokers answer). */
  ready(): Promise<boolean>;
}
