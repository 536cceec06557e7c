import { status as Status } from '@grpc/grpc-js';
import { verificationEligibilityListV1 as v1, verificationV1 } from '@eligo/proto';
import { notFound } from '../../src/errors/domain-error';
import { createClient, type GrpcClient } from '../../src/grpc/client';
import { decodeGrpcError } from '../../src/grpc/error-codec';
import { GrpcHost } from '../../src/grpc/host';
import { bindService } from '../../src/grpc/unary';
import { capturingLogger, hostAddress, transports } from './helpers';

const importList = { importEligibilityList: verificationV1.VerificationServiceService.importEligibilityList };
type Part = v1.ImportEligibilityListRequest;

const start = (programId: string): Part => ({
  part: { $case: 'start', start: { programId, format: 'csv' } },
});
const batch = (line: number): Part => ({
  part: {
    $case: 'rows',
    rows: { rows: [v1.EligibilityListRow.create({ line, email: `p${line}@x.org`.padEnd(32 * 1024, 'x') })] },
  },
});

/** Client-streaming RPCs through bindService and client.clientStream, over a real loopback channel. */
describe.each(transports)('client-streaming calls (%s)', (_transport, inProcess) => {
  const { logger } = capturingLogger();
  let host: GrpcHost;
  let client: GrpcClient<typeof verificationV1.VerificationServiceService>;
  let consumed = 0;
  let serverEnd: 'done' | 'error' | undefined;

  beforeAll(async () => {
    host = new GrpcHost({ inProcess, logger });
    host.addService(
      bindService(
        importList,
        {
          async importEligibilityList(requests) {
            consumed = 0;
            serverEnd = undefined;
            let programId = '';
            const lines: number[] = [];
            try {
              for await (const { part } of requests) {
                if (part?.$case === 'start') programId = part.start.programId;
                if (programId === 'missing') throw notFound('No such program', { errorIds: ['noProgram'] });
                if (part?.$case === 'rows') {
                  consumed += 1;
                  lines.push(...part.rows.rows.map((r) => r.line));
                  if (programId === 'slow') await new Promise((r) => setTimeout(r, 5));
                }
              }
              serverEnd = 'done';
            } catch (err) {
              serverEnd = 'error';
              throw err;
            }
            return {
              list: undefined,
              rowsRead: lines.length,
              rowsStored: lines.reduce((a, b) => a + b, 0),
              rowsRefused: 0,
              duplicates: 0,
              refusals: [],
            };
          },
        },
        logger,
      ),
    );
    const address = hostAddress(await host.listen('127.0.0.1', 0));
    client = createClient(verificationV1.VerificationServiceClient, address, { breaker: false });
  });

  afterAll(async () => {
    client.close();
    await host.shutdown(0);
  });

  async function* parts(programId: string, count: number, failAt = -1): AsyncGenerator<Part> {
    yield start(programId);
    for (let i = 1; i <= count; i++) {
      if (i === failAt) throw new Error('the upload broke off');
      yield batch(i);
    }
  }

  it('delivers every message in order and answers the one response', async () => {
    const reply = await client.clientStream('importEligibilityList', parts('p', 50));
    expect(reply).toMatchObject({ rowsRead: 50, rowsStored: (50 * 51) / 2 });
    expect(serverEnd).toBe('done');
  });

  it('takes the next message only as fast as the server reads (backpressure)', async () => {
    let produced = 0;
    let maxAhead = 0;
    async function* counted(): AsyncGenerator<Part> {
      for await (const part of parts('slow', 200)) {
        produced += 1;
        maxAhead = Math.max(maxAhead, produced - consumed);
        yield part;
      }
    }
    await client.clientStream('importEligibilityList', counted());
    // 200 messages of 32 KiB: the transport's windows hold a few dozen, never the whole stream.
    expect(maxAhead).toBeLessThan(100);
  });

  it("gives the handler's error to the caller as its status", async () => {
    const err = decodeGrpcError(
      await client.clientStream('importEligibilityList', parts('missing', 5)).catch((e: unknown) => e),
    );
    expect(err).toMatchObject({ code: Status.NOT_FOUND, errorIds: ['noProgram'] });
  });

  it('cancels the call when the source fails, and the handler sees an error rather than the end', async () => {
    await expect(client.clientStream('importEligibilityList', parts('p', 10, 4))).rejects.toThrow(
      'the upload broke off',
    );
    for (let i = 0; i < 50 && serverEnd === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    expect(serverEnd).toBe('error');
  });
});
