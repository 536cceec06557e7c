import type { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import { callDependency, type GrpcClient } from '@eligo/runtime';

/**
 * A verification as the verification service answered it: the spec's verification response (VR). The
 * documents service only hands it on to the gateway (adding the errorIds of refused files), so it keeps every
 * field of the contract's message: `_sameFields` below makes a field added there fail the build here
 * instead of being dropped on the way through.
 */
export interface VerificationResponse {
  verificationId: string;
  currentStep: string;
  errorIds: string[];
  systemErrorMessage: string;
  segment: string;
  subSegment?: string | undefined;
  rewardCode?: string | undefined;
  consolationRewardCode?: string | undefined;
  redirectUrl?: string | undefined;
  locale: string;
  availableStatuses: string[];
  rejectionReasons: string[];
  maxReviewTime: string;
  estimatedReviewTime: string;
  instantMatchAttempts: number;
  country: string;
  docUploadToken: string;
  canResendEmailLoop: boolean;
}

type ContractResponse = verificationVerificationV1.VerificationResponse;
type MissingFields = Exclude<keyof ContractResponse, keyof VerificationResponse>;
type ExtraFields = Exclude<keyof VerificationResponse, keyof ContractResponse>;
// Compiles only while both have the same fields.
const _sameFields: [MissingFields | ExtraFields] extends [never] ? true : never = true;

/** What the verification service tells about a verification at its docUpload step. */
export interface DocUploadContext {
  verification: VerificationResponse;
  programId: string;
  accountId: string;
  testMode: boolean;
}

/** The verification service as the documents service needs it. */
export interface VerificationPort {
  /** Throws the verification's own errors (noVerification 404, invalidStep 400, docReviewLimitExceeded 429). */
  docUploadContext(verificationId: string, docUploadToken: string): Promise<DocUploadContext>;
  /** docUpload -> pending for this review; idempotent per review id. Answers the verification as it stands. */
  recordDocumentsSubmitted(verificationId: string, reviewId: string): Promise<VerificationResponse>;
}

/**
 * The verification's own errors are the answer the client must see (the spec's errorIds and statuses), so
 * they are raised again as this service's errors, unchanged.
 */
const calling = <T>(call: () => Promise<T>) =>
  callDependency('verification', call, { forwardOwnErrors: true });

/** The contract's message as this service's type: every field copied (lists too, so nothing is shared). */
function verificationOf(v: ContractResponse): VerificationResponse {
  return {
    ...v,
    errorIds: [...v.errorIds],
    availableStatuses: [...v.availableStatuses],
    rejectionReasons: [...v.rejectionReasons],
  };
}

export function verificationPort(
  client: GrpcClient<typeof verificationV1.VerificationServiceService>,
): VerificationPort {
  return {
    async docUploadContext(verificationId, docUploadToken) {
      const reply = await calling(() =>
        client.unary('getDocUploadContext', { verificationId, docUploadToken }),
      );
      if (!reply.verification) throw new Error('GetDocUploadContext answered without a verification');
      return {
        verification: verificationOf(reply.verification),
        programId: reply.programId,
        accountId: reply.accountId,
        testMode: reply.testMode,
      };
    },
    async recordDocumentsSubmitted(verificationId, reviewId) {
      const reply = await calling(() =>
        client.unary('recordDocumentsSubmitted', { verificationId, docUploadToken: '', reviewId }),
      );
      if (!reply.verification) throw new Error('RecordDocumentsSubmitted answered without a verification');
      return verificationOf(reply.verification);
    },
  };
}
