import type { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import { callDependency, type GrpcClient } from '@eligo/runtime';

export type VerificationResponse = verificationVerificationV1.VerificationResponse;

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
        verification: reply.verification,
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
      return reply.verification;
    },
  };
}
