import { reportsV1 } from '@eligo/proto';
import {
  bindService,
  getInfoResponse,
  invalidArgument,
  type GrpcServiceBinding,
  type ServiceContext,
} from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { recordConversion, type ConversionTarget } from '../app/conversions';
import { createReverifyReport, createVerificationReport } from '../app/create-report';
import { pageOfPiiAccess } from '../app/pii-access';
import { deleteReport, reportDownload, reportOf } from '../app/read-reports';
import { listReportFields } from '../app/report-fields';
import { getReverification, startReverification } from '../app/reverify';
import { batchToProto, modeFromProto, piiAccessToProto, reportToProto } from './mapping';

/** The gRPC face of the reports service: each handler converts, calls one use case, converts back. */
export function reportsGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  return bindService(
    reportsV1.ReportsServiceService,
    {
      getInfo: async () => getInfoResponse(deps),
      createVerificationReport: async (req) => ({
        report: reportToProto(
          await createVerificationReport(app, {
            accountId: req.accountId,
            tokenId: req.tokenId,
            startDate: req.startDate,
            endDate: req.endDate,
            format: req.format,
            piiIncluded: req.piiIncluded,
            piiReason: req.piiReason,
            programIds: req.programIds,
            mode: modeFromProto(req.modeInclusion),
            piiAllowed: req.piiAllowed,
          }),
        ),
      }),
      createReverifyReport: async (req) => ({
        report: reportToProto(await createReverifyReport(app, { ...req, tokenId: '' })),
      }),
      getReportStatus: async (req) => ({
        report: reportToProto(await reportOf(app, req.accountId, req.reportId)),
      }),
      async *downloadReport(req) {
        for await (const part of reportDownload(app, req))
          yield 'report' in part
            ? { part: { $case: 'report', report: reportToProto(part.report) } }
            : { part: { $case: 'chunk', chunk: part.chunk } };
      },
      deleteReport: async (req) => ({ report: reportToProto(await deleteReport(app, req)) }),
      listReportFields: async (req) => ({ fieldSets: await listReportFields(app, req) }),
      recordConversion: async (req) => ({
        conversionId: await recordConversion(app, {
          target: conversionTarget(req),
          amount: req.amount,
          currency: req.currency,
          tags: req.tags,
          callerAccountId: req.accountId,
        }),
      }),
      startReverification: async (req) => ({ batch: batchToProto(await startReverification(app, req)) }),
      getReverification: async (req) => ({ batch: batchToProto(await getReverification(app, req)) }),
      listPiiAccess: async (req) => {
        const page = await pageOfPiiAccess(app, req);
        return { accesses: page.accesses.map(piiAccessToProto), nextPageToken: page.nextPageToken };
      },
    },
    deps.logger,
  );
}

function conversionTarget(req: reportsV1.RecordConversionRequest): ConversionTarget {
  const target = req.target;
  if (target?.$case === 'verificationId') return { verificationId: target.verificationId };
  if (target?.$case === 'tracking') return target.tracking;
  throw invalidArgument('A conversion names a verification id or a tracking id');
}
