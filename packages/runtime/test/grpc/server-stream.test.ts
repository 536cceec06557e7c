import { status as Status } from '@grpc/grpc-js';
import { reportsV1 } from '@eligo/proto';
import { notFound } from '../../src/errors/domain-error';
import { createClient, type GrpcClient } from '../../src/grpc/client';
import { decodeGrpcError } from '../../src/grpc/error-codec';
import { GrpcHost } from '../../src/grpc/host';
import { bindService } from '../../src/grpc/unary';
import { createMetricsRegistry, metricsText, type MetricsRegistry } from '../../src/metrics/registry';
import { capturingLogger, hostAddress, transports } from './helpers';

const download = { downloadReport: reportsV1.ReportsServiceService.downloadReport };
type Part = reportsV1.DownloadReportResponse;

const report = (reportId: string): Part => ({
  part: {
    $case: 'report',
    report: {
      reportId,
      status: reportsV1.ReportStatus.REPORT_STATUS_COMPLETE,
      rowCount: 0,
      kind: 'VERIFICATION',
      errorMessage: '',
    },
  },
});
const chunk = (text: string): Part => ({ part: { $case: 'chunk', chunk: Buffer.from(text) } });

/** Server-streaming RPCs through bindService and client.serverStream, over a real loopback channel. */
describe.each(transports)('server-streaming calls (%s)', (_transport, inProcess) => {
  const { logger, lines } = capturingLogger();
  let host: GrpcHost;
  let client: GrpcClient<typeof reportsV1.ReportsServiceService>;
  let registry: MetricsRegistry;
  let produced = 0;
  let stoppedEarly = false;

  beforeAll(async () => {
    registry = createMetricsRegistry({ defaultMetrics: false });
    host = new GrpcHost({ inProcess, logger, metrics: registry });
    host.addService(
      bindService(
        download,
        {
          async *downloadReport(request) {
            if (request.reportId === 'missing') throw notFound('No such report', { errorIds: ['noReport'] });
            yield report(request.reportId);
            const count = request.reportId === 'endless' ? Number.MAX_SAFE_INTEGER : 200;
            produced = 0;
            try {
              for (let i = 0; i < count; i++) {
                produced += 1;
                if (request.reportId === 'fails' && i === 3) throw new Error('disk gone at /secret/path');
                yield chunk(`row ${i}\n`.padEnd(64 * 1024, '.'));
              }
            } finally {
              if (produced < count) stoppedEarly = true;
            }
          },
        },
        logger,
      ),
    );
    const address = hostAddress(await host.listen('127.0.0.1', 0));
    client = createClient(reportsV1.ReportsServiceClient, address, {
      metrics: registry,
      module: 'gateway',
      breaker: false,
    });
  });

  afterAll(async () => {
    client.close();
    await host.shutdown(0);
  });

  it('delivers every message in order', async () => {
    const parts: Part[] = [];
    for await (const part of client.serverStream('downloadReport', {
      accountId: 'a',
      reportId: 'r1',
      tokenId: '',
      piiAllowed: false,
    }))
      parts.push(part);
    expect(parts).toHaveLength(201);
    expect(parts[0]?.part?.$case).toBe('report');
    const rows = parts
      .slice(1)
      .map((p) => (p.part?.$case === 'chunk' ? p.part.chunk.subarray(0, 8).toString() : ''));
    expect(rows[0]).toBe('row 0\n..');
    expect(rows[199]).toBe('row 199\n');
    expect((await metricsText(registry)).body).toMatch(
      /grpc_client_handled_total\{[^}]*grpc_method="DownloadReport"[^}]*grpc_code="OK"/,
    );
  });

  it('turns a DomainError thrown before the first message into its status', async () => {
    const read = async () => {
      for await (const _ of client.serverStream('downloadReport', {
        accountId: 'a',
        reportId: 'missing',
        tokenId: '',
        piiAllowed: false,
      }));
    };
    const err = await read().catch((e: unknown) => e);
    expect(decodeGrpcError(err)).toMatchObject({ code: Status.NOT_FOUND, errorIds: ['noReport'] });
  });

  it('ends a stream that fails half-way with INTERNAL and a generic message, logged once', async () => {
    let received = 0;
    const read = async () => {
      for await (const _ of client.serverStream('downloadReport', {
        accountId: 'a',
        reportId: 'fails',
        tokenId: '',
        piiAllowed: false,
      }))
        received += 1;
    };
    const err = await read().catch((e: unknown) => e);
    const decoded = decodeGrpcError(err);
    expect(decoded.code).toBe(Status.INTERNAL);
    expect(decoded.message).not.toContain('/secret/path');
    expect(received).toBe(4);
    expect(lines().filter((l) => l.msg === 'grpc handler failed')).toHaveLength(1);
  });

  it('stops the producer when the reader breaks off (backpressure, no runaway memory)', async () => {
    stoppedEarly = false;
    let received = 0;
    for await (const _ of client.serverStream('downloadReport', {
      accountId: 'a',
      reportId: 'endless',
      tokenId: '',
      piiAllowed: false,
    })) {
      received += 1;
      if (received === 5) break;
    }
    await waitUntil(() => stoppedEarly);
    // The producer waits for the reader: it cannot run far ahead of the 5 messages read.
    expect(produced).toBeLessThan(200);
  });

  it('fails with DEADLINE_EXCEEDED when the stream outlives its deadline', async () => {
    const read = async () => {
      for await (const _ of client.serverStream(
        'downloadReport',
        { accountId: 'a', reportId: 'endless', tokenId: '', piiAllowed: false },
        { deadlineMs: 200 },
      ))
        await new Promise((r) => setTimeout(r, 20));
    };
    const err = await read().catch((e: unknown) => e);
    expect(decodeGrpcError(err).code).toBe(Status.DEADLINE_EXCEEDED);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
