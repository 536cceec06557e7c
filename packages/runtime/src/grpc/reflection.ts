import { dirname, relative, resolve } from 'node:path';
import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { protoFiles, protoRoot } from '@eligo/proto';
import { healthProtoPath, healthServiceName } from './health';

// health.proto lives at <root>/health/v1/health.proto inside grpc-health-check.
const healthRoot = resolve(dirname(healthProtoPath), '..', '..');

let cached: PackageDefinition | undefined;

/**
 * Descriptors of every Eligo .proto plus grpc.health.v1, parsed once per process. Reflection answers from
 * these, so `grpcurl list/describe` works against any process without a local copy of the protos.
 */
function packageDefinition(): PackageDefinition {
  // keepCase: descriptors must carry the proto's own field names (build_info), not camelCase.
  cached ??= loadSync([...protoFiles, relative(healthRoot, healthProtoPath)], {
    includeDirs: [protoRoot, healthRoot],
    keepCase: true,
  });
  return cached;
}

/**
 * Adds grpc.reflection (v1 and v1alpha) listing only what this process actually hosts: in a split
 * deployment a process must not advertise services that live elsewhere.
 */
export function addReflection(server: Server, hostedServices: readonly string[]): void {
  const services = [...hostedServices, healthServiceName];
  new ReflectionService(packageDefinition(), { services }).addToServer(server);
}
