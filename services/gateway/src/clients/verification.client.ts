import type { verificationEligibilityListV1, verificationV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

type Service = typeof verificationV1.VerificationServiceService;

/**
 * The spec gives clients 11 seconds for a personal-info submission. The submissions (which run the instant
 * match) get 10 s, so the gateway answers inside that budget, with 504 at worst, even when a dependency hangs.
 */
export const SUBMISSION_DEADLINE_MS = 10_000;

/**
 * An eligibility list import is one call for the whole file (the service activates the list at its end): a
 * deadline for a large upload over a slow link, not for a batch.
 */
export const LIST_IMPORT_DEADLINE_MS = 15 * 60_000;

/** The VerificationService RPCs, one typed method each, through the runtime client. */
export interface VerificationClient {
  getInfo(req: verificationV1.GetInfoRequest): Promise<verificationV1.GetInfoResponse>;
  startVerification(
    req: verificationV1.StartVerificationRequest,
  ): Promise<verificationV1.StartVerificationResponse>;
  submitPersonalInfo(
    req: verificationV1.SubmitPersonalInfoRequest,
  ): Promise<verificationV1.SubmitPersonalInfoResponse>;
  submitMilitaryStatus(
    req: verificationV1.SubmitMilitaryStatusRequest,
  ): Promise<verificationV1.SubmitMilitaryStatusResponse>;
  submitSocialSecurityNumber(
    req: verificationV1.SubmitSocialSecurityNumberRequest,
  ): Promise<verificationV1.SubmitSocialSecurityNumberResponse>;
  skipStep(req: verificationV1.SkipStepRequest): Promise<verificationV1.SkipStepResponse>;
  submitEmailToken(
    req: verificationV1.SubmitEmailTokenRequest,
  ): Promise<verificationV1.SubmitEmailTokenResponse>;
  resendEmailToken(
    req: verificationV1.ResendEmailTokenRequest,
  ): Promise<verificationV1.ResendEmailTokenResponse>;
  getSsoLoginUrl(req: verificationV1.GetSsoLoginUrlRequest): Promise<verificationV1.GetSsoLoginUrlResponse>;
  finishSso(req: verificationV1.FinishSsoRequest): Promise<verificationV1.FinishSsoResponse>;
  getVerification(
    req: verificationV1.GetVerificationRequest,
  ): Promise<verificationV1.GetVerificationResponse>;
  getVerificationByTrackingId(
    req: verificationV1.GetVerificationByTrackingIdRequest,
  ): Promise<verificationV1.GetVerificationByTrackingIdResponse>;
  listVerificationHistory(
    req: verificationV1.ListVerificationHistoryRequest,
  ): Promise<verificationV1.ListVerificationHistoryResponse>;
  getVerificationDetails(
    req: verificationV1.GetVerificationDetailsRequest,
  ): Promise<verificationV1.GetVerificationDetailsResponse>;
  expireVerification(
    req: verificationV1.ExpireVerificationRequest,
  ): Promise<verificationV1.ExpireVerificationResponse>;
  getMetadata(req: verificationV1.GetMetadataRequest): Promise<verificationV1.GetMetadataResponse>;
  putMetadata(req: verificationV1.PutMetadataRequest): Promise<verificationV1.PutMetadataResponse>;
  refireWebhooks(req: verificationV1.RefireWebhooksRequest): Promise<verificationV1.RefireWebhooksResponse>;
  getVerificationAdmin(
    req: verificationV1.GetVerificationAdminRequest,
  ): Promise<verificationV1.GetVerificationAdminResponse>;
  locateVerification(
    req: verificationV1.LocateVerificationRequest,
  ): Promise<verificationV1.LocateVerificationResponse>;
  searchVerifications(
    req: verificationV1.SearchVerificationsRequest,
  ): Promise<verificationV1.SearchVerificationsResponse>;
  importEligibilityList(
    messages: AsyncIterable<verificationEligibilityListV1.ImportEligibilityListRequest>,
  ): Promise<verificationEligibilityListV1.ImportEligibilityListResponse>;
  getEligibilityList(
    req: verificationEligibilityListV1.GetEligibilityListRequest,
  ): Promise<verificationEligibilityListV1.GetEligibilityListResponse>;
  deleteEligibilityList(
    req: verificationEligibilityListV1.DeleteEligibilityListRequest,
  ): Promise<verificationEligibilityListV1.DeleteEligibilityListResponse>;
}

/** Wraps the module's one verification channel (clients.ts); built once in createModule. */
export function createVerificationClient(
  client: GrpcClient<Service>,
  submissionDeadlineMs = SUBMISSION_DEADLINE_MS,
): VerificationClient {
  const submission = { deadlineMs: submissionDeadlineMs };
  return {
    getInfo: (req) => client.unary('getInfo', req),
    startVerification: (req) => client.unary('startVerification', req),
    submitPersonalInfo: (req) => client.unary('submitPersonalInfo', req, submission),
    submitMilitaryStatus: (req) => client.unary('submitMilitaryStatus', req, submission),
    submitSocialSecurityNumber: (req) => client.unary('submitSocialSecurityNumber', req, submission),
    skipStep: (req) => client.unary('skipStep', req),
    submitEmailToken: (req) => client.unary('submitEmailToken', req, submission),
    resendEmailToken: (req) => client.unary('resendEmailToken', req),
    getSsoLoginUrl: (req) => client.unary('getSsoLoginUrl', req),
    // The organization's provider is called up to three times: a submission's deadline, not a read's.
    finishSso: (req) => client.unary('finishSso', req, submission),
    getVerification: (req) => client.unary('getVerification', req),
    getVerificationByTrackingId: (req) => client.unary('getVerificationByTrackingId', req),
    listVerificationHistory: (req) => client.unary('listVerificationHistory', req),
    getVerificationDetails: (req) => client.unary('getVerificationDetails', req),
    expireVerification: (req) => client.unary('expireVerification', req),
    getMetadata: (req) => client.unary('getMetadata', req),
    putMetadata: (req) => client.unary('putMetadata', req),
    refireWebhooks: (req) => client.unary('refireWebhooks', req),
    getVerificationAdmin: (req) => client.unary('getVerificationAdmin', req),
    locateVerification: (req) => client.unary('locateVerification', req),
    searchVerifications: (req) => client.unary('searchVerifications', req),
    importEligibilityList: (messages) =>
      client.clientStream('importEligibilityList', messages, { deadlineMs: LIST_IMPORT_DEADLINE_MS }),
    getEligibilityList: (req) => client.unary('getEligibilityList', req),
    deleteEligibilityList: (req) => client.unary('deleteEligibilityList', req),
  };
}
