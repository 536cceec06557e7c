import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { status as Status } from '@grpc/grpc-js';
import { programsV1, reportsV1 } from '@eligo/proto';
import { FileDescriptorProto, type IFileDescriptorProto } from 'protobufjs/ext/descriptor';
import { createClient, type GrpcClient } from '../../src/grpc/client';
import { decodeGrpcError } from '../../src/grpc/error-codec';
import { GrpcHost } from '../../src/grpc/host';
import { bindService } from '../../src/grpc/unary';
import { createMetricsRegistry, metricsText, type MetricsRegistry } from '../../src/metrics/registry';
import {
  buildInfo,
  capturingLogger,
  checkHealth,
  fakePrograms,
  fileDescriptorsFor,
  hostAddress,
  listServices,
  transports,
} from './helpers';

const execFileAsync = promisify(execFile);
const programsName = 'eligo.programs.v1.ProgramsService';
const reportsName = 'eligo.reports.v1.ReportsService';

/**
 * All-in-one mode: one host serves two modules, and reports reaches programs through a client over the
 * loopback network, the same code path as in a split deployment.
 */
describe.each(transports)('a gRPC host serving two modules in one process (%s)', (_transport, inProcess) => {
  const { logger, lines } = capturingLogger();
  const programs = fakePrograms(logger);
  let registry: MetricsRegistry;
  let host: GrpcHost;
  let address: string;
  let programsFromReports: GrpcClient<typeof programsV1.ProgramsServiceService>;
  let reports: GrpcClient<typeof reportsV1.ReportsServiceService>;
  let programsClient: GrpcClient<typeof programsV1.ProgramsServiceService>;

  beforeAll(async () => {
    registry = createMetricsRegistry({ defaultMetrics: false });
    const options = { metrics: registry, breaker: false as const };
    // Built like a module in createModule: before the host listens on port 0, so the address is a function.
    programsFromReports = createClient(programsV1.ProgramsServiceClient, () => address, {
      ...options,
      module: 'reports',
    });
    host = new GrpcHost({ inProcess, logger, metrics: registry });
    host.addService(programs.binding);
    host.addService(
      bindService(
        // GetInfo alone: a module may serve part of a definition (bindService names it from the paths).
        { getInfo: reportsV1.ReportsServiceService.getInfo },
        {
          getInfo: async (_request, call) => {
            // The inbound deadline caps the outbound call, so the chain fits the caller's budget.
            const reply = await programsFromReports.unary('getInfo', {}, { deadline: call.getDeadline() });
            return {
              buildInfo: { ...buildInfo('reports'), gitCommit: `via:${reply.buildInfo?.module}` },
            };
          },
        },
        logger,
      ),
    );
    address = hostAddress(await host.listen('127.0.0.1', 0));
    reports = createClient(reportsV1.ReportsServiceClient, address, {
      ...options,
      module: 'gateway',
    });
    programsClient = createClient(programsV1.ProgramsServiceClient, address, {
      ...options,
      module: 'gateway',
    });
  });

  afterAll(async () => {
    for (const c of [programsFromReports, reports, programsClient]) c.close();
    await host.shutdown(1000);
  });

  beforeEach(() => {
    programs.state.mode = 'ok';
    programs.state.calls = 0;
  });

  it('round-trips reports -> programs through the network stack', async () => {
    const reply = await reports.unary('getInfo', {});
    expect(reply.buildInfo?.module).toBe('reports');
    expect(reply.buildInfo?.gitCommit).toBe('via:programs');
    expect(reply.buildInfo?.startedAt).toBeInstanceOf(Date);
    expect(programs.state.calls).toBe(1);

    const text = (await metricsText(registry)).body;
    for (const [module, service] of [
      ['programs', programsName],
      ['reports', reportsName],
    ]) {
      expect(text).toMatch(
        new RegExp(
          `grpc_server_handled_total\\{module="${module}",grpc_service="${service}",grpc_method="GetInfo",grpc_code="OK"\\} 1`,
        ),
      );
    }
    expect(text).toMatch(
      /grpc_client_handled_total\{module="reports",grpc_service="eligo.programs.v1.ProgramsService",grpc_method="GetInfo",grpc_code="OK"\} 1/,
    );
  });

  it('reports health per service and overall, and NOT_SERVING once set', async () => {
    expect(await checkHealth(address, programsName)).toBe('NOT_SERVING');
    host.setAllServing(true);
    for (const name of ['', programsName, reportsName]) {
      expect(await checkHealth(address, name)).toBe('SERVING');
    }
    host.setServing(programsName, false);
    expect(await checkHealth(address, programsName)).toBe('NOT_SERVING');
    expect(await checkHealth(address, reportsName)).toBe('SERVING');
    await expect(checkHealth(address, 'eligo.documents.v1.DocumentsService')).rejects.toMatchObject({
      code: Status.NOT_FOUND,
    });
    host.setAllServing(true);
  });

  it('lists exactly the hosted services through reflection, and describes them', async () => {
    expect(await listServices(address)).toEqual([programsName, reportsName, 'grpc.health.v1.Health']);
    // `describe` needs the file defining the service plus, declared as imports, the files of the types it
    // uses (eligo.common.v1.BuildInfo, google.protobuf.Timestamp), with fully qualified references.
    const files = (await fileDescriptorsFor(address, programsName)).map(
      (b) => FileDescriptorProto.decode(b) as IFileDescriptorProto,
    );
    const [own, ...deps] = files;
    expect(own?.service?.map((svc) => svc.name)).toEqual(['ProgramsService']);
    const response = own?.messageType?.find((m) => m.name === 'GetInfoResponse');
    expect(response?.field?.[0]).toMatchObject({
      name: 'build_info',
      typeName: '.eligo.common.v1.BuildInfo',
    });
    expect([...(own?.dependency as string[])].sort()).toEqual(deps.map((d) => d.name).sort());
    expect(deps.map((d) => d.package).sort()).toEqual(['eligo.common.v1', 'google.protobuf']);
    await expect(fileDescriptorsFor(address, 'eligo.nope.v1.NopeService')).rejects.toThrow(/not found/);
  });

  it('serves reflection that a strict external client (buf curl, Go linker) can use to call the service', async () => {
    const buf = join(require.resolve('@bufbuild/buf/package.json'), '..', 'bin', 'buf');
    const curl = async (...args: string[]): Promise<string> =>
      (await execFileAsync(buf, ['curl', '--protocol', 'grpc', '--http2-prior-knowledge', ...args])).stdout;
    const methods = (await curl('--list-methods', `http://${address}`)).trim().split('\n');
    expect(methods).toEqual(
      expect.arrayContaining([
        `${programsName}/GetInfo`,
        `${reportsName}/GetInfo`,
        'grpc.health.v1.Health/Check',
      ]),
    );
    // Decoding the reply needs eligo.common.v1.BuildInfo and google.protobuf.Timestamp from other files.
    const reply = JSON.parse(await curl('-d', '{}', `http://${address}/${programsName}/GetInfo`)) as {
      buildInfo: { module: string; startedAt: string };
    };
    expect(reply.buildInfo.module).toBe('programs');
    expect(new Date(reply.buildInfo.startedAt).getTime()).not.toBeNaN();
  });

  it('maps a domain error to its status with errorIds in trailing metadata', async () => {
    programs.state.mode = 'notFound';
    const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
    expect(decodeGrpcError(err)).toMatchObject({
      code: Status.NOT_FOUND,
      codeName: 'NOT_FOUND',
      message: 'No program with this id',
      errorIds: ['noProgram'],
      kind: 'notFound',
      circuitOpen: false,
    });
    expect(programs.state.calls).toBe(1);
    // One access line (info: the caller's fault), with method, code and duration but no payload.
    const access = lines().filter((l) => l.grpcService === programsName && l.grpcCode === 'NOT_FOUND');
    expect(access).toHaveLength(1);
    expect(Object.keys(access[0]!).sort()).toEqual(
      ['grpcCode', 'grpcMethod', 'grpcService', 'hostname', 'level', 'ms', 'msg', 'pid', 'time'].sort(),
    );
    expect(access[0]).toMatchObject({ grpcMethod: 'GetInfo', level: 30, msg: 'grpc call' });
  });

  it('turns an unknown error into INTERNAL with a generic message, logged once with its detail', async () => {
    programs.state.mode = 'boom';
    const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
    const decoded = decodeGrpcError(err);
    expect(decoded).toMatchObject({ code: Status.INTERNAL, message: 'Internal server error', errorIds: [] });
    expect(JSON.stringify(decoded)).not.toContain('hunter2');
    expect(String((err as Error).message)).not.toContain('hunter2');
    const leaks = lines().filter((l) => JSON.stringify(l).includes('hunter2'));
    expect(leaks).toHaveLength(1);
    expect(leaks[0]).toMatchObject({
      level: 50,
      msg: 'grpc handler failed',
      grpcPath: `/${programsName}/GetInfo`,
    });
  });

  it('a hung handler fails with DEADLINE_EXCEEDED close to the deadline', async () => {
    programs.state.mode = 'hang';
    const started = Date.now();
    const err = await programsClient.unary('getInfo', {}, { deadlineMs: 300 }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(decodeGrpcError(err).code).toBe(Status.DEADLINE_EXCEEDED);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(800);
    // The server side records the call as timed out as well, although the handler never answered.
    await waitFor(async () =>
      /grpc_server_handled_total\{module="programs",[^}]*grpc_code="DEADLINE_EXCEEDED"\} 1/.test(
        (await metricsText(registry)).body,
      ),
    );
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
