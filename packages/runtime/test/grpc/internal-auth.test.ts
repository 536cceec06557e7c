import { status as Status } from '@grpc/grpc-js';
import { programsV1 } from '@eligo/proto';
import { createClient } from '../../src/grpc/client';
import { GrpcHost } from '../../src/grpc/host';
import { isLoopbackHost } from '../../src/grpc/internal-auth';
import { capturingLogger, checkHealth, fakePrograms, hostAddress, listServices, transports } from './helpers';

const current = 'c'.repeat(40);
const previous = 'p'.repeat(40);

describe.each(transports)('internal call authentication (%s)', (_transport, inProcess) => {
  const { logger, lines } = capturingLogger();
  let host: GrpcHost;
  let address: string;

  beforeAll(async () => {
    host = new GrpcHost({ inProcess, logger, internalTokens: [current, previous] });
    host.addService(fakePrograms(logger).binding);
    address = hostAddress(await host.listen('127.0.0.1', 0));
    host.setAllServing(true);
  });
  afterAll(() => host.forceShutdown());

  const getInfo = async (internalToken?: string, metadata?: Record<string, string>) => {
    const client = createClient(programsV1.ProgramsServiceClient, address, {
      breaker: false,
      retry: { maxAttempts: 1 },
      internalToken,
    });
    try {
      return await client.unary('getInfo', {}, { metadata });
    } finally {
      client.close();
    }
  };

  it('refuses a call without the token with UNAUTHENTICATED, never echoing what was sent', async () => {
    await expect(getInfo()).rejects.toMatchObject({ code: Status.UNAUTHENTICATED });
    const wrong = 'w'.repeat(40);
    const err = await getInfo(wrong).catch((e: Error) => e);
    expect(err).toMatchObject({ code: Status.UNAUTHENTICATED });
    expect(String((err as Error).message)).not.toContain(wrong);
    // A prefix or an extension of the right token is just as wrong.
    await expect(getInfo(current.slice(0, 39))).rejects.toMatchObject({ code: Status.UNAUTHENTICATED });
    await expect(getInfo(`${current}x`)).rejects.toMatchObject({ code: Status.UNAUTHENTICATED });
  });

  it('takes the current token and, during a rotation, the previous one', async () => {
    expect((await getInfo(current)).buildInfo?.module).toBe('programs');
    expect((await getInfo(previous)).buildInfo?.module).toBe('programs');
  });

  it('leaves health and reflection open to probes and grpcurl', async () => {
    expect(await checkHealth(address, '')).toBe('SERVING');
    expect(await listServices(address)).toContain('eligo.programs.v1.ProgramsService');
  });

  it('logs refused calls by method and code only', async () => {
    await getInfo('x'.repeat(40)).catch(() => undefined);
    const refused = lines().filter((l) => l.grpcCode === 'UNAUTHENTICATED');
    expect(refused.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines())).not.toContain('x'.repeat(40));
    expect(JSON.stringify(lines())).not.toContain(current);
  });
});

it('tells loopback interfaces from the others', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST'])
    expect([h, isLoopbackHost(h)]).toEqual([h, true]);
  for (const h of ['0.0.0.0', '::', '10.0.0.5', 'eligo.internal', '128.0.0.1'])
    expect([h, isLoopbackHost(h)]).toEqual([h, false]);
});
