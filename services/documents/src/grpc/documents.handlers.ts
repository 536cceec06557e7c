import { documentsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';
import { beginFileUpload } from '../app/begin-file-upload';
import { cancelUpload } from '../app/cancel-upload';
import { completeUpload } from '../app/complete-upload';
import type { AppContext } from '../app/context';
import { createUpload } from '../app/create-upload';
import { decideReview } from '../app/decide-review';
import { finishFileUpload } from '../app/finish-file-upload';
import { getReview, listReviewPage } from '../app/reviews';

/** The gRPC face of the documents service: each handler converts, calls one use case, converts back. */
export function documentsGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  return bindService(
    documentsV1.DocumentsServiceService,
    {
      getInfo: async () => getInfoResponse(deps),
      createUpload: (req) => createUpload(app, req),
      beginFileUpload: (req) => beginFileUpload(app, req.uploadToken),
      finishFileUpload: async (req) => ({ document: await finishFileUpload(app, req.uploadToken) }),
      completeUpload: (req) => completeUpload(app, req),
      cancelUpload: async (req) => {
        await cancelUpload(app, req.uploadId);
        return {};
      },
      listReviews: (req) => listReviewPage(app, req),
      getReview: (req) => getReview(app, req.reviewId),
      decideReview: async (req) => ({ review: await decideReview(app, req) }),
    },
    deps.logger,
  );
}
