import { Server, status as Status } from '@grpc/grpc-js';
import { programsV1 } from '@eligo/proto';
import { createClient, type GrpcClient } from '../../src/grpc/client';
import { GrpcHost } from '../../src/grpc/host';
import { inProcessSupported } from '../../src/grpc/in-process';
import { notFound } from '../../src/errors/domain-error';
import { bindService } from '../../src/grpc/unary';
import { buildInfo, capturingLogger, hostAddress, transports } from './helpers';

type Programs = typeof programsV1.ProgramsServiceService;
const { getInfo, getProgram } = programsV1.ProgramsServiceService;

/**
 * What the in-process transport must keep of a real call (grpc/in-process.ts): the caller and the handler
 * never share an object, limits and deadlines hold, and a host that stops refuses or cuts calls as over the
 * socket. The transport-level suites (client, streams, host, internal auth) run on both transports as well.
 */
describe.each(transports)('calls to a host of the same process (%s)', (transport, inProcess) => {
  const { logger } = capturingLogger();
  const seen: {
    peer?: string;
    request?: unknown;
    hang?: boolean;
    cancelled?: boolean;
    stackTraceLimit?: number;
  } = {};
  let host: GrpcHost;
  let client: GrpcClient<Programs>;
  let sent: programsV1.GetProgramRequest;

  beforeAll(async () => {
    host = new GrpcHost({
      inProcess,
      logger,
      serverOptions: { 'grpc.max_receive_message_length': 1024 },
    });
    host.addService(
      bindService(
        { getInfo, getProgram },
        {
          getInfo: async (_request, call) => {
            seen.peer = call.getPeer();
            if (seen.hang)
              await new Promise<void>((resolve) =>
                call.once('cancelled', () => {
                  seen.cancelled = true;
                  resolve();
                }),
              );
            return { buildInfo: buildInfo('programs') };
          },
          getProgram: async (request) => {
            seen.request = request;
            seen.stackTraceLimit = Error.stackTraceLimit;
            if (request.programId === 'missing') throw notFound('No program with this id');
            // A handler that changes its request must not change the caller's object.
            request.programId = 'changed by the handler';
            return { program: undefined };
          },
        },
        logger,
      ),
    );
    const port = await host.listen('127.0.0.1', 0);
    client = createClient(programsV1.ProgramsServiceClient, () => hostAddress(port), { breaker: false });
  });

  afterAll(() => {
    client.close();
    host.forceShutdown();
  });

  beforeEach(() => {
    seen.hang = false;
    seen.cancelled = false;
  });

  it('takes the transport it is set to', async () => {
    await client.unary('getInfo', {});
    if (inProcess) expect(seen.peer).toBe('in-process');
    else expect(seen.peer).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('hands the handler a decoded copy of the request, never the caller’s object', async () => {
    sent = { programId: 'p-1', accountId: '' };
    await client.unary('getProgram', sent);
    expect(seen.request).not.toBe(sent);
    expect(sent.programId).toBe('p-1');
  });

  it('starts a call without grpc-js capturing the caller’s stack; a failed call’s error names its method', async () => {
    // grpc-js reads the stack it captured at the call's start only when the call fails: its frames show here.
    const frames: number[] = [];
    const original = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    Error.prepareStackTrace = (err, callSites) => {
      if (err.message === '') frames.push(callSites.length);
      return original ? original(err, callSites) : String(err);
    };
    let failed: Error | undefined;
    try {
      await client.unary('getProgram', { programId: 'missing', accountId: '' });
    } catch (err) {
      failed = err as Error;
    } finally {
      Error.prepareStackTrace = original;
    }
    expect(failed).toMatchObject({ code: Status.NOT_FOUND });
    expect(frames).toEqual([0]);
    expect(failed!.stack).toContain('\nfor call of /eligo.programs.v1.ProgramsService/GetProgram');
    expect(failed!.stack).not.toContain('for call at');
    // Put back for the caller and for the callee's own code.
    expect(Error.stackTraceLimit).toBe(limit);
    expect(seen.stackTraceLimit).toBe(limit);
  });

  it('refuses a request over the host’s message size limit with RESOURCE_EXHAUSTED', async () => {
    const big = { programId: 'x'.repeat(2000), accountId: '' };
    await expect(client.unary('getProgram', big)).rejects.toMatchObject({ code: Status.RESOURCE_EXHAUSTED });
  });

  it('cancels the handler of a call whose deadline passed', async () => {
    seen.hang = true;
    await expect(client.unary('getInfo', {}, { deadlineMs: 150 })).rejects.toMatchObject({
      code: Status.DEADLINE_EXCEEDED,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.cancelled).toBe(true);
  });

  it(`cuts a call in flight when the host is forced down, then refuses new ones (${transport})`, async () => {
    seen.hang = true;
    const pending = client.unary('getInfo', {}, { deadlineMs: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    host.forceShutdown();
    // A stream the server resets ends CANCELLED on the client (never retried: the call may have had effects).
    await expect(pending).rejects.toMatchObject({ code: Status.CANCELLED });
    await expect(client.unary('getInfo', {}, { deadlineMs: 500 })).rejects.toMatchObject({
      code: Status.UNAVAILABLE,
    });
  });
});

it('finds what the in-process transport needs in this grpc-js (else every call would take the socket)', () => {
  expect(inProcessSupported(new Server())).toBe(true);
});
