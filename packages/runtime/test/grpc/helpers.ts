import { createServer } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import pino, { type Logger } from 'pino';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { programsV1 } from '@eligo/proto';
import { notFound, unavailable } from '../../src/errors/domain-error';
import { bindService } from '../../src/grpc/unary';
import type { GrpcServiceBinding } from '../../src/module/module';

/** A logger whose JSON lines the test can read back. */
export function capturingLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines };
}

export type ProgramsMode = 'ok' | 'hang' | 'notFound' | 'unavailable' | 'boom';

/** A ProgramsService whose behaviour the test switches, counting the calls that reach the handler. */
export function fakePrograms(logger: Logger) {
  const state = { mode: 'ok' as ProgramsMode, calls: 0 };
  const binding: GrpcServiceBinding = bindService(
    // Only GetInfo: the transport behaviour under test does not depend on the service's other methods.
    { getInfo: programsV1.ProgramsServiceService.getInfo },
    {
      getInfo: async () => {
        state.calls++;
        switch (state.mode) {
          case 'hang':
            return new Promise<never>(() => {});
          case 'notFound':
            throw notFound('No program with this id', { errorIds: ['noProgram'] });
          case 'unavailable':
            throw unavailable('Programs store is unavailable');
          case 'boom':
            throw new Error('secret detail: db password is hunter2');
          default:
            return { buildInfo: buildInfo('programs') };
        }
      },
    },
    logger,
  );
  return { state, binding };
}

export function buildInfo(module: string) {
  return {
    module,
    version: '0.1.0',
    gitCommit: '',
    runtimeVersion: process.version,
    startedAt: new Date(),
    processId: process.pid,
    hostName: 'test',
  };
}

/** A port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface HealthClient extends grpc.Client {
  check(
    request: { service: string },
    callback: (err: grpc.ServiceError | null, response?: { status: string }) => void,
  ): void;
}

/** A plain grpc.health.v1 client, built from the proto like any other tool (grpc_health_probe) would. */
export async function checkHealth(address: string, service: string): Promise<string> {
  const pkg = grpc.loadPackageDefinition(loadSync(healthProtoPath, { enums: String })) as unknown as {
    grpc: { health: { v1: { Health: new (a: string, c: grpc.ChannelCredentials) => HealthClient } } };
  };
  const client = new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve, reject) =>
      client.check({ service }, (err, res) => (err ? reject(err) : resolve(res!.status))),
    );
  } finally {
    client.close();
  }
}

type ReflectionRequest = { list_services?: string; file_containing_symbol?: string };
type ReflectionResponse = {
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
};

interface ReflectionClient extends grpc.Client {
  serverReflectionInfo(): grpc.ClientDuplexStream<ReflectionRequest, ReflectionResponse>;
}

/** One request on grpc.reflection.v1, as grpcurl sends them. */
async function reflect(address: string, request: ReflectionRequest): Promise<ReflectionResponse> {
  const protoPath = join(
    require.resolve('@grpc/reflection/package.json'),
    '..',
    'build/proto/grpc/reflection/v1/reflection.proto',
  );
  const pkg = grpc.loadPackageDefinition(loadSync(protoPath, { keepCase: true })) as unknown as {
    grpc: {
      reflection: {
        v1: { ServerReflection: new (a: string, c: grpc.ChannelCredentials) => ReflectionClient };
      };
    };
  };
  const client = new pkg.grpc.reflection.v1.ServerReflection(address, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve, reject) => {
      const stream = client.serverReflectionInfo();
      stream.on('data', (msg: ReflectionResponse) => {
        resolve(msg);
        stream.end();
      });
      stream.on('error', reject);
      stream.write(request);
    });
  } finally {
    client.close();
  }
}

/** What `grpcurl list` shows. */
export async function listServices(address: string): Promise<string[]> {
  const reply = await reflect(address, { list_services: '' });
  return (reply.list_services_response?.service ?? []).map((s) => s.name).sort();
}

/** What `grpcurl describe <symbol>` fetches: the serialized FileDescriptorProtos defining it. */
export async function fileDescriptorsFor(address: string, symbol: string): Promise<Buffer[]> {
  const reply = await reflect(address, { file_containing_symbol: symbol });
  if (reply.error_response) throw new Error(reply.error_response.error_message);
  return reply.file_descriptor_response?.file_descriptor_proto ?? [];
}

export function hostAddress(port: number): string {
  return `127.0.0.1:${port}`;
}

/**
 * The two transports between a client and a host of the same process, for `describe.each`: in process (the
 * default, grpc/in-process.ts) and over the loopback socket (ELIGO_GRPC_IN_PROCESS=false, and every call
 * between processes). Transport-level behaviour must be the same on both.
 */
export const transports = [
  ['in process', true],
  ['over loopback', false],
] as const;
