import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { status as Status } from '@grpc/grpc-js';
import { programsV1 } from '@eligo/proto';
import { createClient } from '../../src/grpc/client';
import { decodeGrpcError } from '../../src/grpc/error-codec';
import { checkHealth, hostAddress } from './helpers';

const fixture = join(__dirname, 'fixtures', 'programs-server.js');
const compiledHost = join(__dirname, '..', '..', 'dist', 'grpc', 'host.js');

/** Split deployment: the service runs in another process from the compiled runtime; the test calls it. */
describe('a gRPC service in another process', () => {
  let child: ChildProcess;
  let address: string;

  beforeAll(async () => {
    if (!existsSync(compiledHost)) {
      throw new Error(`${compiledHost} is missing: build the runtime first (npx tsc -p tsconfig.build.json)`);
    }
    child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`fixture exited with ${code} before listening`)));
      createInterface({ input: child.stdout! }).once('line', (line) =>
        resolve((JSON.parse(line) as { port: number }).port),
      );
    });
    address = hostAddress(port);
  });

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('answers over the network, maps domain errors, reports health, and drains on SIGTERM', async () => {
    const programs = createClient(programsV1.ProgramsServiceClient, address, { deadlineMs: 2000 });
    try {
      const reply = await programs.unary('getInfo', {});
      expect(reply.buildInfo?.processId).toBe(child.pid);
      expect(reply.buildInfo?.processId).not.toBe(process.pid);

      const err = await programs
        .unary('getInfo', {}, { metadata: { 'x-missing': '1' } })
        .catch((e: unknown) => e);
      expect(decodeGrpcError(err)).toMatchObject({ code: Status.NOT_FOUND, errorIds: ['noProgram'] });

      expect(await checkHealth(address, 'eligo.programs.v1.ProgramsService')).toBe('SERVING');

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      const after = await programs.unary('getInfo', {}, { deadlineMs: 500 }).catch((e: unknown) => e);
      expect(decodeGrpcError(after).code).toBe(Status.UNAVAILABLE);
    } finally {
      programs.close();
    }
  });
});
