import type { documentsV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

type Service = typeof documentsV1.DocumentsServiceService;

/**
 * The DocumentsService RPCs the gateway calls, one typed method each, through the runtime client (deadline,
 * UNAVAILABLE retries, circuit breaker). GetInfo goes through module-info.ts like every service's.
 */
export interface DocumentsClient {
  createUpload(req: documentsV1.CreateUploadRequest): Promise<documentsV1.CreateUploadResponse>;
  beginFileUpload(req: documentsV1.BeginFileUploadRequest): Promise<documentsV1.BeginFileUploadResponse>;
  finishFileUpload(req: documentsV1.FinishFileUploadRequest): Promise<documentsV1.FinishFileUploadResponse>;
  completeUpload(req: documentsV1.CompleteUploadRequest): Promise<documentsV1.CompleteUploadResponse>;
  cancelUpload(req: documentsV1.CancelUploadRequest): Promise<documentsV1.CancelUploadResponse>;
  listReviews(req: documentsV1.ListReviewsRequest): Promise<documentsV1.ListReviewsResponse>;
  getReview(req: documentsV1.GetReviewRequest): Promise<documentsV1.GetReviewResponse>;
  decideReview(req: documentsV1.DecideReviewRequest): Promise<documentsV1.DecideReviewResponse>;
}

/** Wraps the module's one documents channel (clients.ts); built once in createModule. */
export function createDocumentsClient(client: GrpcClient<Service>): DocumentsClient {
  return {
    createUpload: (req) => client.unary('createUpload', req),
    beginFileUpload: (req) => client.unary('beginFileUpload', req),
    finishFileUpload: (req) => client.unary('finishFileUpload', req),
    completeUpload: (req) => client.unary('completeUpload', req),
    cancelUpload: (req) => client.unary('cancelUpload', req),
    listReviews: (req) => client.unary('listReviews', req),
    getReview: (req) => client.unary('getReview', req),
    decideReview: (req) => client.unary('decideReview', req),
  };
}
