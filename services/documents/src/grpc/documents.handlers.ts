import { documentsV1Lean } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';
import { beginFileUpload } from '../app/begin-file-upload';
import { cancelUpload } from '../app/cancel-upload';
import { claimReview, releaseReview } from '../app/claim-review';
import { completeUpload } from '../app/complete-upload';
import type { AppContext } from '../app/context';
import { createUpload } from '../app/create-upload';
import { decideReview } from '../app/decide-review';
import { finishFileUpload } from '../app/finish-file-upload';
import { readReviewFile } from '../app/read-review-file';
import { getReview, listReviewPage } from '../app/reviews';
import { uploadFiles } from '../app/upload-files';
import {
  beginFileUploadResponseToProto,
  claimReviewResponseToProto,
  completeUploadResponseToProto,
  createUploadInputFromProto,
  createUploadResponseToProto,
  documentToProto,
  getReviewResponseToProto,
  listReviewsResponseToProto,
  reviewFilePartToProto,
  reviewToProto,
} from './mapping';
import { uploadFilesResponseToProto, uploadParts } from './upload-files.mapping';

/** The gRPC face of the documents service: each handler converts, calls one use case, converts back. */
export function documentsGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  return bindService(
    documentsV1Lean.DocumentsServiceService,
    {
      getInfo: async () => getInfoResponse(deps),
      createUpload: async (req) =>
        createUploadResponseToProto(await createUpload(app, createUploadInputFromProto(req))),
      beginFileUpload: async (req) =>
        beginFileUploadResponseToProto(await beginFileUpload(app, req.uploadToken)),
      finishFileUpload: async (req) => ({
        document: documentToProto(await finishFileUpload(app, req.uploadToken)),
      }),
      completeUpload: async (req) =>
        completeUploadResponseToProto(
          await completeUpload(app, { verificationId: req.verificationId, uploadId: req.uploadId }),
        ),
      uploadFiles: async (requests) =>
        uploadFilesResponseToProto(await uploadFiles(app, uploadParts(requests))),
      cancelUpload: async (req) => {
        await cancelUpload(app, req.uploadId);
        return {};
      },
      listReviews: async (req) =>
        listReviewsResponseToProto(
          await listReviewPage(app, {
            status: req.status,
            limit: req.limit,
            cursor: req.cursor,
            programId: req.programId,
            segment: req.segment,
            order: req.order,
          }),
        ),
      getReview: async (req) => getReviewResponseToProto(await getReview(app, req.reviewId)),
      decideReview: async (req) => ({
        review: reviewToProto(
          await decideReview(app, {
            reviewId: req.reviewId,
            decision: req.decision,
            rejectionReasons: req.rejectionReasons,
            decidedBy: req.decidedBy,
          }),
        ),
      }),
      claimReview: async (req) =>
        claimReviewResponseToProto(await claimReview(app, { reviewId: req.reviewId, holder: req.holder })),
      releaseReview: async (req) => ({
        review: reviewToProto(await releaseReview(app, { reviewId: req.reviewId, holder: req.holder })),
      }),
      async *readReviewFile(req) {
        for await (const part of readReviewFile(app, req)) yield reviewFilePartToProto(part);
      },
    },
    deps.logger,
  );
}
