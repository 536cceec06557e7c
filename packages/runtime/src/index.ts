// @eligo/runtime: the plumbing every module stands on. Services import only from here.
export { loadConfig, loadServiceConfig, ConfigError, type Config } from './config/config';
export { maskConfig } from './config/mask';
export type { ModuleName } from './config/schema';
export {
  createLogger,
  componentLogger,
  redactPaths,
  type Logger,
  type LoggingConfig,
} from './logging/logger';
export * from './errors/domain-error';
export {
  createFieldCipher,
  deriveKey,
  parseMasterKey,
  MASTER_KEY_BYTES,
  type FieldCipher,
} from './crypto/field-cipher';
export { GrpcHost, type GrpcHostOptions } from './grpc/host';
export {
  createClient,
  type GrpcClient,
  type GrpcClientOptions,
  type UnaryCallOptions,
  type GeneratedClientConstructor,
  type RequestOf,
  type ResponseOf,
} from './grpc/client';
export { CallBreaker, defaultBreakerOptions, type BreakerOptions, type BreakerState } from './grpc/breaker';
export { defaultRetryPolicy, type RetryPolicy } from './grpc/retry';
export {
  bindService,
  unaryAdapter,
  serverStreamAdapter,
  clientStreamAdapter,
  serviceNameOf,
  type UnaryHandler,
  type ServerStreamHandler,
  type ClientStreamHandler,
  type ServiceHandlers,
} from './grpc/unary';
export {
  decodeGrpcError,
  encodeError,
  isServiceError,
  GrpcCallError,
  type DecodedGrpcError,
} from './grpc/error-codec';
export { callDependency, type CallDependencyOptions } from './grpc/dependency';
export {
  grpcStatusByKind,
  errorMetadataKeys,
  grpcCodeName,
  genericMessageByGrpcCode,
  isGrpcCode,
  transportFailureCodes,
} from './grpc/status-mapping';
export {
  createMetricsRegistry,
  metricsText,
  counter,
  gauge,
  histogram,
  moduleMetrics,
  type MetricsRegistry,
  type ModuleMetrics,
  type MetricsRegistryOptions,
} from './metrics/registry';
export { createDb, pingDb, assertSchemaName, type DbOptions, type Knex } from './db/knex';
export { inTransaction, type Queryable, type Transaction } from './db/transaction';
export { asOneStatement, NotWritten } from './db/one-statement';
export { migrateSchema, appliedMigrations, type SchemaMigration } from './db/migrate';
export {
  findPostgresBinaries,
  postgresServerUser,
  type PostgresBinaries,
  type ServerUser,
} from './db/postgres-binaries';
export * from './events/index';
export * from './objectstore/index';
export { createHttpServer, type HttpServer, type HttpServerOptions } from './http/server';
export type { Module, GrpcServiceBinding } from './module/module';
export type { ModuleDeps, ModuleFactory, ModuleDefinition } from './module/deps';
export { buildInfoFor, getInfoResponse, type BuildInfo } from './module/build-info';
export {
  createServiceModule,
  type ServiceModuleSpec,
  type ServiceContext,
  type ServiceConsumer,
} from './module/service-module';
export { PeriodicJob, type PeriodicJobOptions } from './module/periodic-job';
export { launch, type LaunchOptions, type RunningProcess, type StartedInfo } from './module/launcher';
export { runProcess, type RunOptions } from './module/run';
export { runMigrations } from './module/migrate-command';
export { parseTargets, startOrder } from './module/targets';
export {
  blockedRange,
  isAddressAllowed,
  NO_ALLOWED_CIDRS,
  parseAllowCidrs,
  type AllowCidrs,
} from './net/address-policy';
export { allowCidrsSetting } from './config/allow-cidrs-setting';
export { BlockedAddressError, guardedLookup } from './net/guarded-lookup';
export { currentTraceParent, inStoredTraceSpan } from './telemetry/trace-context';
