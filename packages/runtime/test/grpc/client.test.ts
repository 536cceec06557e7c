import { status as Status } from '@grpc/grpc-js';
import { programsV1 } from '@eligo/proto';
import { createClient, type GrpcClient, type GrpcClientOptions } from '../../src/grpc/client';
import { decodeGrpcError } from '../../src/grpc/error-codec';
import { GrpcHost } from '../../src/grpc/host';
import { createMetricsRegistry, metricsText } from '../../src/metrics/registry';
import { capturingLogger, fakePrograms, freePort, hostAddress, transports } from './helpers';

type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;

describe.each(transports)(
  'gRPC client: deadlines, circuit breaker, retries (%s)',
  (_transport, inProcess) => {
    const { logger } = capturingLogger();
    const programs = fakePrograms(logger);
    let host: GrpcHost;
    let address: string;
    const clients: ProgramsClient[] = [];
    const client = (options: GrpcClientOptions): ProgramsClient => {
      const c = createClient(programsV1.ProgramsServiceClient, address, options);
      clients.push(c);
      return c;
    };

    beforeAll(async () => {
      host = new GrpcHost({ inProcess, logger });
      host.addService(programs.binding);
      address = hostAddress(await host.listen('127.0.0.1', 0));
    });

    afterAll(async () => {
      for (const c of clients) c.close();
      await host.shutdown(1000);
    });

    beforeEach(() => {
      programs.state.mode = 'ok';
      programs.state.calls = 0;
    });

    it('opens the breaker after the configured timeouts, fails fast, then half-opens and closes', async () => {
      const registry = createMetricsRegistry({ defaultMetrics: false });
      const programsClient = client({
        deadlineMs: 400,
        breaker: { volumeThreshold: 3, resetTimeoutMs: 600 },
        metrics: registry,
        module: 'gateway',
      });
      programs.state.mode = 'hang';
      for (let i = 0; i < 3; i++) {
        const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
        expect(decodeGrpcError(err).code).toBe(Status.DEADLINE_EXCEEDED);
      }
      expect(programsClient.breakerState()).toBe('open');

      const started = Date.now();
      const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(100);
      expect(decodeGrpcError(err)).toMatchObject({
        code: Status.UNAVAILABLE,
        circuitOpen: true,
        message: 'Service unavailable',
      });
      expect(programs.state.calls).toBe(3);
      expect((await metricsText(registry)).body).toMatch(
        /grpc_client_circuit_state\{module="gateway",grpc_service="eligo.programs.v1.ProgramsService"\} 2/,
      );

      await new Promise((r) => setTimeout(r, 700));
      expect(programsClient.breakerState()).toBe('halfOpen');
      programs.state.mode = 'ok';
      const reply = await programsClient.unary('getInfo', {});
      expect(reply.buildInfo?.module).toBe('programs');
      expect(programsClient.breakerState()).toBe('closed');
    });

    it('does not count domain errors as breaker failures', async () => {
      const programsClient = client({ breaker: { volumeThreshold: 3, resetTimeoutMs: 60_000 } });
      programs.state.mode = 'notFound';
      for (let i = 0; i < 10; i++) {
        const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
        expect(decodeGrpcError(err).code).toBe(Status.NOT_FOUND);
      }
      expect(programsClient.breakerState()).toBe('closed');
      expect(programs.state.calls).toBe(10);
    });

    it('does not count INTERNAL answers (a handler bug or bad data) as breaker failures', async () => {
      const programsClient = client({ breaker: { volumeThreshold: 3, resetTimeoutMs: 60_000 } });
      programs.state.mode = 'boom';
      for (let i = 0; i < 10; i++) {
        const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
        expect(decodeGrpcError(err).code).toBe(Status.INTERNAL);
      }
      expect(programsClient.breakerState()).toBe('closed');
      expect(programs.state.calls).toBe(10);
      programs.state.mode = 'ok';
      expect((await programsClient.unary('getInfo', {})).buildInfo?.module).toBe('programs');
    });

    it('does not retry a domain error, nor an UNAVAILABLE that a handler sent on purpose', async () => {
      const programsClient = client({ retry: { maxAttempts: 5 } });
      programs.state.mode = 'notFound';
      await expect(programsClient.unary('getInfo', {})).rejects.toMatchObject({ code: Status.NOT_FOUND });
      expect(programs.state.calls).toBe(1);

      programs.state.mode = 'unavailable';
      await expect(programsClient.unary('getInfo', {})).rejects.toMatchObject({ code: Status.UNAVAILABLE });
      expect(programs.state.calls).toBe(2);
    });

    it("caps the deadline with an absolute one (the inbound call's) and lets the caller abort", async () => {
      const programsClient = client({ deadlineMs: 5000, breaker: false });
      programs.state.mode = 'hang';
      let started = Date.now();
      await expect(programsClient.unary('getInfo', {}, { deadline: Date.now() + 200 })).rejects.toMatchObject(
        {
          code: Status.DEADLINE_EXCEEDED,
        },
      );
      expect(Date.now() - started).toBeLessThan(1000);

      started = Date.now();
      const aborted = programsClient.unary('getInfo', {}, { signal: AbortSignal.timeout(100) });
      await expect(aborted).rejects.toMatchObject({ code: Status.CANCELLED });
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('does not retry DEADLINE_EXCEEDED', async () => {
      const programsClient = client({ deadlineMs: 150, retry: { maxAttempts: 5 }, breaker: false });
      programs.state.mode = 'hang';
      await expect(programsClient.unary('getInfo', {})).rejects.toMatchObject({
        code: Status.DEADLINE_EXCEEDED,
      });
      expect(programs.state.calls).toBe(1);
    });
  },
);

describe.each(transports)('gRPC client retries on UNAVAILABLE (%s)', (_transport, inProcess) => {
  it('succeeds once a server that was down comes up within the retry budget', async () => {
    const { logger } = capturingLogger();
    const programs = fakePrograms(logger);
    const port = await freePort();
    const registry = createMetricsRegistry({ defaultMetrics: false });
    const programsClient = createClient(programsV1.ProgramsServiceClient, hostAddress(port), {
      deadlineMs: 5000,
      retry: { maxAttempts: 10, initialBackoffMs: 100, maxBackoffMs: 400 },
      metrics: registry,
      module: 'gateway',
    });
    const host = new GrpcHost({ inProcess, logger });
    host.addService(programs.binding);
    try {
      const call = programsClient.unary('getInfo', {});
      await new Promise((r) => setTimeout(r, 300));
      await host.listen('127.0.0.1', port);
      const reply = await call;
      expect(reply.buildInfo?.module).toBe('programs');
      expect(programs.state.calls).toBe(1);
      const retries = /grpc_client_retries_total\{[^}]*\} (\d+)/.exec((await metricsText(registry)).body);
      expect(Number(retries?.[1])).toBeGreaterThanOrEqual(1);
    } finally {
      programsClient.close();
      await host.shutdown(1000);
    }
  });

  it('gives up after maxAttempts with UNAVAILABLE, well before the deadline', async () => {
    const port = await freePort();
    const programsClient = createClient(programsV1.ProgramsServiceClient, hostAddress(port), {
      deadlineMs: 5000,
      retry: { maxAttempts: 3, initialBackoffMs: 20 },
      breaker: false,
    });
    try {
      const started = Date.now();
      const err = await programsClient.unary('getInfo', {}).catch((e: unknown) => e);
      expect(decodeGrpcError(err)).toMatchObject({ code: Status.UNAVAILABLE, circuitOpen: false });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      programsClient.close();
    }
  });
});

/** Compile-time checks (tsc --noEmit): method names and request/response types follow the generated service. */
export function typeChecks(c: ProgramsClient): void {
  void (async () => {
    const reply: programsV1.GetInfoResponse = await c.unary('getInfo', {});
    void reply;
    // @ts-expect-error no such RPC
    await c.unary('getInfos', {});
    // @ts-expect-error a request is required
    await c.unary('getInfo');
    // @ts-expect-error the deadline option is a number of milliseconds
    await c.unary('getInfo', {}, { deadlineMs: '5s' });
    // @ts-expect-error the response has no such field
    void (await c.unary('getInfo', {})).programId;
  });
}
