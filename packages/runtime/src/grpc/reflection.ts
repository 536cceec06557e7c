import { dirname, relative, resolve } from 'node:path';
import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { protoFiles, protoRoot } from '@eligo/proto';
import { linkFileDescriptors } from './descriptor-links';
import { healthProtoPath, healthServiceName } from './health';

// health.proto lives at <root>/health/v1/health.proto inside grpc-health-check.
const healthRoot = resolve(dirname(healthProtoPath), '..', '..');

let cached: PackageDefinition | undefined;

/**
 * Descriptors of every Eligo .proto plus grpc.health.v1, parsed once per process. Reflection answers from
 * these, so `grpcurl list/describe` works against any process without a local copy of the protos.
 */
function packageDefinition(): PackageDefinition {
  if (cached) return cached;
  // keepCase: descriptors must carry the proto's own field names (build_info), not camelCase.
  const loaded = loadSync([...protoFiles, relative(healthRoot, healthProtoPath)], {
    includeDirs: [protoRoot, healthRoot],
    keepCase: true,
  });
  // Message and enum definitions all carry the same list of files (service definitions carry none): link
  // the list once and give every carrier the linked copy.
  const filesOf = (d: object): Buffer[] | undefined => {
    const files = (d as { fileDescriptorProtos?: unknown }).fileDescriptorProtos;
    return Array.isArray(files) ? (files as Buffer[]) : undefined;
  };
  const original =
    Object.values(loaded)
      .map(filesOf)
      .find((files) => files !== undefined) ?? [];
  const linked = linkFileDescriptors(original).map((b) => Buffer.from(b));
  cached = Object.fromEntries(
    Object.entries(loaded).map(([name, d]) => [
      name,
      filesOf(d) ? { ...d, fileDescriptorProtos: linked } : d,
    ]),
  ) as PackageDefinition;
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
