import { status as Status } from '@grpc/grpc-js';
import { programsV1 } from '@eligo/proto';
import { createClient, type GrpcClient } from '../../src/grpc/client';
import { callDependency } from '../../src/grpc/dependency';
import { decodeGrpcError } from '../../src/grpc/error-codec';
import { GrpcHost } from '../../src/grpc/host';
import { bindService } from '../../src/grpc/unary';
import { buildInfo, capturingLogger, fakePrograms, freePort, hostAddress } from './helpers';

type Client = GrpcClient<typeof programsV1.ProgramsServiceService>;

// gateway -> verification -> programs, as three real hops on loopback. The stand-in verification serves only
// GetInfo (of the programs proto: any unary method will do), which asks programs first.
describe("a breaker counts its peer's failures, not those of the peer's dependencies", () => {
  const { logger } = capturingLogger();
  const programs = fakePrograms(logger);
  let programsPort: number;
  let programsHost: GrpcHost | undefined;
  let verificationHost: GrpcHost;
  let verificationAddress: string;
  const clients: Client[] = [];
  const client = (address: string, options: Parameters<typeof createClient>[2]): Client => {
    const c = createClient(programsV1.ProgramsServiceClient, address, options);
    clients.push(c);
    return c;
  };
  /** The gateway's client: a breaker that opens after 3 failures and stays open for the rest of the test. */
  const gatewayClient = () =>
    client(verificationAddress, { breaker: { volumeThreshold: 3, resetTimeoutMs: 60_000 } });

  beforeAll(async () => {
    programsPort = await freePort();
    // verification's own breaker for programs opens too (programs is down), and recovers within 200 ms.
    const toPrograms = client(hostAddress(programsPort), {
      deadlineMs: 1000,
      breaker: { volumeThreshold: 3, resetTimeoutMs: 200 },
      channelOptions: { 'grpc.max_reconnect_backoff_ms': 100 },
    });
    verificationHost = new GrpcHost({ logger });
    verificationHost.addService(
      bindService(
        { getInfo: programsV1.ProgramsServiceService.getInfo },
        {
          getInfo: async () => {
            await callDependency('programs', () => toPrograms.unary('getInfo', {}));
            return { buildInfo: buildInfo('verification') };
          },
        },
        logger,
      ),
    );
    verificationAddress = hostAddress(await verificationHost.listen('127.0.0.1', 0));
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await programsHost?.shutdown(100);
    await verificationHost.shutdown(100);
  });

  it('stays closed while programs is down, and the first call once it is back succeeds', async () => {
    const gateway = gatewayClient();
    for (let i = 0; i < 8; i++) {
      const err = await gateway.unary('getInfo', {}).catch((e: unknown) => e);
      // Still UNAVAILABLE (503 at the gateway), marked as verification's answer by its kind.
      expect(decodeGrpcError(err)).toMatchObject({
        code: Status.UNAVAILABLE,
        kind: 'unavailable',
        circuitOpen: false,
        message: 'The programs service is unavailable',
      });
    }
    expect(gateway.breakerState()).toBe('closed');

    programsHost = new GrpcHost({ logger });
    programsHost.addService(programs.binding);
    await programsHost.listen('127.0.0.1', programsPort);
    // Past verification's own reset period (200 ms) and its channel's reconnect backoff (100 ms).
    await new Promise((r) => setTimeout(r, 400));
    const started = Date.now();
    expect((await gateway.unary('getInfo', {})).buildInfo?.module).toBe('verification');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('stays closed while programs hangs and verification answers DEADLINE_EXCEEDED in time', async () => {
    const gateway = gatewayClient();
    programs.state.mode = 'hang';
    try {
      for (let i = 0; i < 4; i++) {
        const err = await gateway.unary('getInfo', {}).catch((e: unknown) => e);
        // DEADLINE_EXCEEDED, or UNAVAILABLE once verification's breaker for programs is open: its answers.
        const { code, kind } = decodeGrpcError(err);
        expect([Status[code], kind]).toEqual(
          code === Status.UNAVAILABLE
            ? ['UNAVAILABLE', 'unavailable']
            : ['DEADLINE_EXCEEDED', 'deadlineExceeded'],
        );
      }
      expect(gateway.breakerState()).toBe('closed');
    } finally {
      programs.state.mode = 'ok';
    }
  });

  it('still opens when verification itself cannot be reached', async () => {
    const gateway = gatewayClient();
    await verificationHost.shutdown(100);
    for (let i = 0; i < 3; i++) {
      const err = await gateway.unary('getInfo', {}).catch((e: unknown) => e);
      expect(decodeGrpcError(err)).toMatchObject({ code: Status.UNAVAILABLE, circuitOpen: false });
      expect(decodeGrpcError(err)).not.toHaveProperty('kind');
    }
    expect(gateway.breakerState()).toBe('open');
  });
});
