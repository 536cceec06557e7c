export { ensureInfra, type InfraHandle, type InfraOptions } from './infra';
export { infraStatus, type StatusEntry } from './commands';
export { freePort } from './ports';
export { DEFAULT_KAFKA_VERSION, ENV, REQUIRED_ENV } from './config';
export { MINIO_VERSION } from './minio-build';
export { InfraError } from './errors';
export { ensurePythonTools, type PythonTools } from './python-tools';
export type { ServiceName, ServiceRecord } from './types';
export * from './testing';
