import { invalidArgument } from '@eligo/runtime';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { DocumentsClient } from '../clients/documents.client';
import { errorMiddleware } from '../errors';
import { documentToJson, rejectedDocumentToJson } from '../mapping/document';
import { present } from '../mapping/program';
import { createUploadProxy, storeFailed, type UploadProxy } from '../upload/upload-proxy';
import { uploadDocumentFile } from '../endpoints/doc-upload';
import { routeTable } from '../endpoints/route-table';
import { tokenParam, uploadContentLength, uploadNotFound } from '../validation/doc-upload-limits';

export interface UploadRouteOptions {
  documents: DocumentsClient;
  logger: Logger;
  proxy?: UploadProxy;
}

/**
 * PUT {publicBase}/uploads/{uploadToken}: form A's per-file upload URL, as endpoints/doc-upload.ts defines
 * it. No token (the upload token is the capability, and it works once). The body is streamed on to the object
 * store's presigned URL, which the client never sees; the documents service then checks what was stored.
 * Mounted at the root of the HTTP app (the path is the whole one), where no body parser runs. Errors are SEM.
 */
export function uploadRouter(options: UploadRouteOptions): Router {
  const { documents, logger } = options;
  const proxy = options.proxy ?? createUploadProxy();

  async function uploadFile(req: Request, res: Response) {
    // Checked from the headers before any service call: a body is never read only to be refused.
    const length = uploadContentLength(req.headers);
    const uploadToken = req.params.uploadToken as string;
    const target = await documents.beginFileUpload({ uploadToken });
    if (length !== target.fileSize) {
      // Releases the claimed token: the client may PUT the right file again.
      await documents.finishFileUpload({ uploadToken });
      throw invalidArgument(
        `The file must be the declared ${target.fileSize} bytes; Content-Length was ${length}`,
      );
    }
    const outcome = await proxy.send(req, res, target.putUrl, target.mimeType, length);
    if ('error' in outcome || outcome.status < 200 || outcome.status >= 300) {
      logger.warn(
        { documentId: target.documentId, ...('error' in outcome ? { err: outcome.error } : outcome) },
        'object store did not take an upload',
      );
      // The service finds nothing (or not the whole file) stored and resets the document for another PUT.
      await documents
        .finishFileUpload({ uploadToken })
        .catch((err: unknown) => logger.warn({ err }, 'could not reset a failed upload'));
      throw storeFailed();
    }
    const finished = present((await documents.finishFileUpload({ uploadToken })).document, 'document');
    if (finished.status === 'UPLOADED') res.json(documentToJson(finished));
    else if (finished.status === 'REJECTED') res.status(400).json(rejectedDocumentToJson(finished));
    else throw storeFailed();
  }

  // The body is the route's to stream (its length is checked from the headers): no body check before it.
  // Errors are SEM. The route answers its own: once the proxy has sent the body on, req.url names the store's
  // path, which no handler mounted by path would match. The router answers those raised before the route runs,
  // such as a token that does not percent-decode (Express decodes path parameters while it matches the route).
  const errors = [closeUnreadBody, errorMiddleware(logger)];
  const router = routeTable(Router(), [
    {
      endpoint: uploadDocumentFile,
      before: [tokenParam('uploadToken', uploadNotFound)],
      handler: uploadFile,
      errors,
    },
  ]);
  router.use('/uploads', ...errors);
  return router;
}

/** An error answered before the body was read through: close the connection rather than drain the body. */
function closeUnreadBody(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (!req.complete && !res.headersSent) res.set('Connection', 'close');
  next(err);
}
