import { passThrough } from '../idempotency/middleware';
import express, { Router, type Request, type Response, type RequestHandler } from 'express';
import { documentsV1, type verificationVerificationV1 } from '@eligo/proto';
import type { DocumentsClient } from '../clients/documents.client';
import { checkBody } from '../endpoints/body-check';
import { DocUploadRequest } from '../endpoints/doc-upload-schemas';
import { completeDocUpload, uploadDocuments, uploadDocumentsForAttempt } from '../endpoints/doc-upload';
import { routeTable } from '../endpoints/route-table';
import { docUploadCreatedToJson, docUploadRefusedToJson, REJECTED_FILE_ERROR_ID } from '../mapping/document';
import { present } from '../mapping/program';
import { verificationToJson } from '../mapping/verification';
import { multipartFiles } from '../upload/multipart-files';
import { DOC_UPLOAD_CONTENT_TYPES, docUploadForm } from '../validation/doc-upload-form';
import { tokenParam } from '../validation/doc-upload-limits';
import { declaredLengthTooLarge, invalidRequest, multipartTooLarge } from '../validation/multipart-parts';
import { verificationNotFound } from '../validation/path-ids';
import { stepErrors, verificationIdOf, verificationIdParam } from './verification-params';

type UploadFilesRequest = documentsV1.UploadFilesRequest;

export interface DocUploadRouteOptions {
  documents: DocumentsClient;
  publicBaseUrl: string;
  /** ELIGO_HTTP_BODY_LIMIT, for form A's JSON manifest. */
  bodyLimit: string;
  /** Idempotency-Key handling (idempotency/middleware.ts), placed after each route's body parser. */
  idempotent?: RequestHandler;
}

/**
 * The docUpload step of REST v2 (docs/architecture.md, "Wire details"), as endpoints/doc-upload.ts defines
 * it. Form A (a JSON manifest) answers an upload URL per file and completeDocUpload as the next
 * submissionUrl; form B (the files as multipart/form-data) does the whole upload and answers pending. The
 * step's path may end in the attempt's docUpload token, which the documents service checks. Mounted ahead of
 * REST v2's JSON parser: form B's body is streamed, never parsed into memory. Refused requests get the step
 * endpoints' 400 VR (stepErrors).
 */
export function docUploadRouter(options: DocUploadRouteOptions): Router {
  const { documents, publicBaseUrl } = options;
  // Parses application/json only; a multipart body is left unread, for form B to stream.
  const json = express.json({ limit: options.bodyLimit, strict: true });
  const idempotent = options.idempotent ?? passThrough;

  /** The Content-Type chooses the form; the definition's body (form A) is checked once it is chosen. */
  async function upload(req: Request, res: Response) {
    const verificationId = verificationIdOf(req);
    const docUploadToken = (req.params.docUploadToken as string | undefined) ?? '';
    switch (docUploadForm(req.headers['content-type'])) {
      case 'manifest':
        return manifest(req, res, verificationId, docUploadToken);
      case 'multipart':
        return multipart(req, res, verificationId, docUploadToken);
      default:
        throw invalidRequest(`Content-Type must be ${DOC_UPLOAD_CONTENT_TYPES}`);
    }
  }

  /** Form A: the service checks the manifest; the bytes follow to each document's upload URL. */
  async function manifest(req: Request, res: Response, verificationId: string, docUploadToken: string) {
    if (req.body === undefined) throw invalidRequest('body is required');
    const checked = checkBody(DocUploadRequest, req.body);
    if (!checked.ok) throw invalidRequest(checked.problem);
    const { files } = checked.value;
    const reply = await documents.createUpload({ verificationId, docUploadToken, files });
    const vr = present(reply.verification, 'verification');
    if (vr.errorIds.length > 0) {
      res.status(400).json(docUploadRefusedToJson(vr, reply.documents, publicBaseUrl));
      return;
    }
    res.json(docUploadCreatedToJson(vr, reply.documents, publicBaseUrl));
  }

  /**
   * Form B: one UploadFiles call, its messages read from the body as it arrives. `start` goes first, before
   * any byte is read, so that the service's refusal (wrong step, unknown verification, review limit) comes
   * before the client has sent its files.
   */
  async function multipart(req: Request, res: Response, verificationId: string, docUploadToken: string) {
    if (declaredLengthTooLarge(req.headers['content-length'])) {
      res.set('Connection', 'close');
      throw multipartTooLarge();
    }
    // Aborted when the client goes away (the call is cancelled: the service keeps nothing) and once the call
    // is over (the body's reading stops, also when the call failed while it waited for bytes).
    const over = new AbortController();
    res.once('close', () => over.abort());
    let read = false;
    async function* messages(files: AsyncIterable<UploadFilesRequest>): AsyncGenerator<UploadFilesRequest> {
      yield { part: { $case: 'start', start: { verificationId, docUploadToken } } };
      yield* files;
      read = true;
    }
    let reply: documentsV1.UploadFilesResponse;
    try {
      reply = await documents.uploadFiles(messages(multipartFiles(req, over.signal)), over.signal);
    } catch (err) {
      // The rest of the body is left unread: do not keep the connection for another request.
      if (!read) res.set('Connection', 'close');
      throw err;
    } finally {
      over.abort();
    }
    const vr = present(reply.verification, 'verification');
    switch (reply.outcome) {
      case documentsV1.UploadOutcome.UPLOAD_OUTCOME_REFUSED:
        res.status(400).json(docUploadRefusedToJson(vr, reply.documents, publicBaseUrl));
        return;
      case documentsV1.UploadOutcome.UPLOAD_OUTCOME_REJECTED:
        res
          .status(400)
          .json(docUploadRefusedToJson(vr, reply.documents, publicBaseUrl, [REJECTED_FILE_ERROR_ID]));
        return;
      case documentsV1.UploadOutcome.UPLOAD_OUTCOME_COMPLETED:
        send(res, vr);
        return;
      default:
        throw new Error(`UploadFiles answered outcome ${reply.outcome}`);
    }
  }

  // Form A's last call, once every file was PUT: the verification moves to pending.
  async function complete(req: Request, res: Response) {
    const reply = await documents.completeUpload({ verificationId: verificationIdOf(req), uploadId: '' });
    send(res, present(reply.verification, 'verification'));
  }

  const send = (res: Response, vr: verificationVerificationV1.VerificationResponse) => {
    res.status(vr.errorIds.length > 0 ? 400 : 200).json(verificationToJson(vr, publicBaseUrl));
  };

  const attemptToken = tokenParam('docUploadToken', verificationNotFound);
  // The path ids first (404 before anything about the body), then the body parser (the idempotency key
  // stands for the body too); the body is the route's own to check, by its Content-Type.
  const errors = [stepErrors];
  return routeTable(Router(), [
    {
      endpoint: uploadDocuments,
      before: [...verificationIdParam, json, idempotent],
      handler: upload,
      errors,
      ownBodyCheck: true,
    },
    {
      endpoint: uploadDocumentsForAttempt,
      before: [...verificationIdParam, attemptToken, json, idempotent],
      handler: upload,
      errors,
      ownBodyCheck: true,
    },
    { endpoint: completeDocUpload, before: [...verificationIdParam, idempotent], handler: complete, errors },
  ]);
}
