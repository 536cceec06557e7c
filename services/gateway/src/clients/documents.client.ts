import type { documentsV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

type Service = typeof documentsV1.DocumentsServiceService;

/**
 * One ReadReviewFile stream carries one file of at most 10 MiB to a browser: longer than a unary call's
 * deadline, short enough that a stalled reader does not hold the call for long.
 */
export const REVIEW_FILE_DEADLINE_MS = 120_000;

/**
 * One UploadFiles call lasts as long as the client takes to send form B's body (up to three 10 MB files), so
 * its deadline is the HTTP server's own limit on a request (Node's default requestTimeout, 300 s): a slow
 * link the server would still wait for is not cut off by the call first.
 */
export const UPLOAD_FILES_DEADLINE_MS = 300_000;

/**
 * The DocumentsService RPCs the gateway calls, one typed method each, through the runtime client (deadline,
 * UNAVAILABLE retries, circuit breaker). GetInfo goes through module-info.ts like every service's.
 */
export interface DocumentsClient {
  createUpload(req: documentsV1.CreateUploadRequest): Promise<documentsV1.CreateUploadResponse>;
  beginFileUpload(req: documentsV1.BeginFileUploadRequest): Promise<documentsV1.BeginFileUploadResponse>;
  finishFileUpload(req: documentsV1.FinishFileUploadRequest): Promise<documentsV1.FinishFileUploadResponse>;
  completeUpload(req: documentsV1.CompleteUploadRequest): Promise<documentsV1.CompleteUploadResponse>;
  /**
   * Form B in one call: the messages are taken with backpressure as the body arrives. A failure of the
   * iterable cancels the call and is thrown; so does aborting `signal` (the HTTP client went away). No
   * retries: the body cannot be read again.
   */
  uploadFiles(
    messages: AsyncIterable<documentsV1.UploadFilesRequest>,
    signal?: AbortSignal,
  ): Promise<documentsV1.UploadFilesResponse>;
  listReviews(req: documentsV1.ListReviewsRequest): Promise<documentsV1.ListReviewsResponse>;
  getReview(req: documentsV1.GetReviewRequest): Promise<documentsV1.GetReviewResponse>;
  decideReview(req: documentsV1.DecideReviewRequest): Promise<documentsV1.DecideReviewResponse>;
  claimReview(req: documentsV1.ClaimReviewRequest): Promise<documentsV1.ClaimReviewResponse>;
  releaseReview(req: documentsV1.ReleaseReviewRequest): Promise<documentsV1.ReleaseReviewResponse>;
  /**
   * The file's description, then its bytes in chunks. Read with backpressure; breaking off the loop, or
   * aborting `signal` (the HTTP client went away), cancels the call. No retries: a stream that failed
   * half-way cannot be resumed.
   */
  readReviewFile(
    req: documentsV1.ReadReviewFileRequest,
    signal?: AbortSignal,
  ): AsyncIterable<documentsV1.ReadReviewFileResponse>;
}

/** Wraps the module's one documents channel (clients.ts); built once in createModule. */
export function createDocumentsClient(client: GrpcClient<Service>): DocumentsClient {
  return {
    createUpload: (req) => client.unary('createUpload', req),
    beginFileUpload: (req) => client.unary('beginFileUpload', req),
    finishFileUpload: (req) => client.unary('finishFileUpload', req),
    completeUpload: (req) => client.unary('completeUpload', req),
    uploadFiles: (messages, signal) =>
      client.clientStream('uploadFiles', messages, {
        deadlineMs: UPLOAD_FILES_DEADLINE_MS,
        ...(signal && { signal }),
      }),
    listReviews: (req) => client.unary('listReviews', req),
    getReview: (req) => client.unary('getReview', req),
    decideReview: (req) => client.unary('decideReview', req),
    claimReview: (req) => client.unary('claimReview', req),
    releaseReview: (req) => client.unary('releaseReview', req),
    readReviewFile: (req, signal) =>
      client.serverStream('readReviewFile', req, {
        deadlineMs: REVIEW_FILE_DEADLINE_MS,
        ...(signal && { signal }),
      }),
  };
}
