import { docUploadContext, recordDocumentsSubmitted } from '../app/documents';
import { verificationV1 } from '@eligo/proto';
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
import { streamPersonalInfo } from '../app/personal-info-stream';
import { reverifyInstantMatch } from '../app/reverify';
import { startVerification } from '../app/start';
import { skipStep, ssoLoginUrl, submitMilitaryStatus, submitSocialSecurityNumber } from '../app/steps';
import { submitPersonalInfo } from '../app/submit';
import { locateKey, reverifyResponse, submittedSubject } from './mapping';

/** The gRPC face of the verification service: each handler converts, calls one use case, converts back. */
export function verificationGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  return bindService(
    verificationV1.VerificationServiceService,
    {
      getInfo: async () => getInfoResponse(deps),
      startVerification: async (req) => ({ verification: await startVerification(app, req) }),
      submitPersonalInfo: async (req) => ({
        verification: await submitPersonalInfo(app, {
          verificationId: req.verificationId,
          programId: req.programId,
          trackingId: req.trackingId,
          step: req.step,
          submitted: submittedSubject(req),
          requestId: req.requestId,
          callerAccountId: req.callerAccountId,
        }),
      }),
      submitMilitaryStatus: async (req) => ({ verification: await submitMilitaryStatus(app, req) }),
      submitSocialSecurityNumber: async (req) => ({
        verification: await submitSocialSecurityNumber(app, req),
      }),
      skipStep: async (req) => ({ verification: await skipStep(app, req) }),
      getSsoLoginUrl: async (req) => ({ loginUrl: await ssoLoginUrl(app, req.verificationId) }),
      getVerification: async (req) => ({ verification: await getVerification(app, req.verificationId) }),
      getVerificationByTrackingId: async (req) => ({
        verification: await getVerificationByTrackingId(app, req),
      }),
      listVerificationHistory: async (req) => ({ verifications: await listHistory(app, req) }),
      getVerificationDetails: async (req) => ({ details: await getDetails(app, req) }),
      expireVerification: async (req) => {
        const { response, alreadyFinal } = await expireVerification(app, req.verificationId);
        return { verification: response, alreadyFinal };
      },
      getMetadata: async (req) => ({ metadata: await getMetadata(app, req) }),
      putMetadata: async (req) => ({ metadata: await putMetadata(app, req) }),
      refireWebhooks: async (req) => {
        await refireWebhooks(app, req);
        return {};
      },
      getVerificationAdmin: async (req) => ({
        verification: await getAdminVerification(app, req.verificationId),
      }),
      getDocUploadContext: async (req) => docUploadContext(app, req),
      recordDocumentsSubmitted: async (req) => ({
        verification: await recordDocumentsSubmitted(app, req),
      }),
      streamPersonalInfo: (req) => streamPersonalInfo(app, req),
      reverifyInstantMatch: async (req) => reverifyResponse(await reverifyInstantMatch(app, req)),
      locateVerification: async (req) => locateVerification(app, locateKey(req)),
    },
    deps.logger,
  );
}
