import { docUploadContext, recordDocumentsSubmitted } from '../app/documents';
import { verificationV1 } from '@eligo/proto';
import { importParts, importResultToProto, listVersionToProto } from './eligibility-list.mapping';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';
import { getAdminVerification } from '../app/admin';
import type { AppContext } from '../app/context';
import {
  expireVerification,
  getDetails,
  getMetadata,
  getVerification,
  getVerificationByTrackingId,
  listHistory,
  putMetadata,
  refireWebhooks,
} from '../app/read';
import { locateVerification } from '../app/locate';
import {
  deleteEligibilityList,
  getEligibilityList,
  importEligibilityList,
} from '../app/eligibility-list-import';
import { streamPersonalInfo } from '../app/personal-info-stream';
import { reverifyInstantMatch } from '../app/reverify';
import { searchVerifications } from '../app/search';
import { startVerification } from '../app/start';
import { resendEmailToken, submitEmailToken, takeEmailLoopMessage, withEmailLoop } from '../app/email-loop';
import type { VerificationAnswer } from '../domain/answer';
import { skipStep, submitMilitaryStatus, submitSocialSecurityNumber } from '../app/steps';
import { finishSso, ssoLoginUrl } from '../app/sso';
import { submitPersonalInfo } from '../app/submit';
import {
  adminToProto,
  answerToProto,
  detailsToProto,
  docUploadContextToProto,
  locateKey,
  personalInfoToProto,
  reverifyResponse,
  submittedSubject,
  summaryToProto,
} from './mapping';

/** A server stream's messages converted one by one, as the use case yields them. */
async function* mapStream<T, R>(source: AsyncIterable<T>, convert: (item: T) => R): AsyncGenerator<R> {
  for await (const item of source) yield convert(item);
}

/** The gRPC face of the verification service: each handler converts, calls one use case, converts back. */
export function verificationGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  /** A response as the flow answers it: on emailLoop, with whether a new code may be asked for now. */
  const flow = async (answer: Promise<VerificationAnswer>) => ({
    verification: answerToProto(await withEmailLoop(app, await answer)),
  });
  return bindService(
    verificationV1.VerificationServiceService,
    {
      getInfo: async () => getInfoResponse(deps),
      startVerification: async (req) => ({ verification: answerToProto(await startVerification(app, req)) }),
      submitPersonalInfo: async (req) =>
        flow(
          submitPersonalInfo(app, {
            verificationId: req.verificationId,
            programId: req.programId,
            trackingId: req.trackingId,
            step: req.step,
            submitted: submittedSubject(req),
            requestId: req.requestId,
            callerAccountId: req.callerAccountId,
          }),
        ),
      submitMilitaryStatus: async (req) => ({
        verification: answerToProto(await submitMilitaryStatus(app, req)),
      }),
      submitSocialSecurityNumber: async (req) => ({
        verification: answerToProto(await submitSocialSecurityNumber(app, req)),
      }),
      skipStep: async (req) => ({ verification: answerToProto(await skipStep(app, req)) }),
      submitEmailToken: async (req) => flow(submitEmailToken(app, req)),
      resendEmailToken: async (req) => flow(resendEmailToken(app, req)),
      takeEmailLoopMessage: async (req) => {
        const taken = await takeEmailLoopMessage(app, req);
        return taken.found
          ? { ...taken, found: true }
          : { found: false, email: '', code: '', locale: '', expiresAt: undefined, programId: '' };
      },
      getSsoLoginUrl: async (req) => ssoLoginUrl(app, req.verificationId, req.redirectUri),
      finishSso: async (req) => {
        const { verification, programId } = await finishSso(app, req);
        return { verification: answerToProto(verification), programId };
      },
      getVerification: async (req) => flow(getVerification(app, req.verificationId)),
      getVerificationByTrackingId: async (req) => flow(getVerificationByTrackingId(app, req)),
      listVerificationHistory: async (req) => ({
        verifications: (await listHistory(app, req)).map(answerToProto),
      }),
      getVerificationDetails: async (req) => ({ details: detailsToProto(await getDetails(app, req)) }),
      expireVerification: async (req) => {
        const { response, alreadyFinal } = await expireVerification(app, req.verificationId);
        return { verification: answerToProto(response), alreadyFinal };
      },
      getMetadata: async (req) => ({ metadata: await getMetadata(app, req) }),
      putMetadata: async (req) => ({ metadata: await putMetadata(app, req) }),
      refireWebhooks: async (req) => {
        await refireWebhooks(app, req);
        return {};
      },
      getVerificationAdmin: async (req) => ({
        verification: adminToProto(await getAdminVerification(app, req.verificationId)),
      }),
      getDocUploadContext: async (req) => docUploadContextToProto(await docUploadContext(app, req)),
      recordDocumentsSubmitted: async (req) => ({
        verification: answerToProto(await recordDocumentsSubmitted(app, req)),
      }),
      streamPersonalInfo: (req) => mapStream(streamPersonalInfo(app, req), personalInfoToProto),
      reverifyInstantMatch: async (req) => reverifyResponse(await reverifyInstantMatch(app, req)),
      locateVerification: async (req) => locateVerification(app, locateKey(req)),
      searchVerifications: async (req) => {
        const page = await searchVerifications(app, req);
        return { verifications: page.verifications.map(summaryToProto), nextPageToken: page.nextPageToken };
      },
      importEligibilityList: async (requests) =>
        importResultToProto(await importEligibilityList(app, importParts(requests))),
      getEligibilityList: async (req) => ({
        list: listVersionToProto(await getEligibilityList(app, req.programId)),
      }),
      deleteEligibilityList: async (req) => {
        await deleteEligibilityList(app, req.programId);
        return {};
      },
    },
    deps.logger,
  );
}
