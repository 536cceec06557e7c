import type { z } from 'zod';
import type { documentsV1, verificationVerificationV1 } from '@eligo/proto';
import {
  DocumentStatus,
  type Document as DocumentSchema,
  type DocUploadResponse,
  type DocumentStatusName,
  type UploadedDocument,
} from '../endpoints/doc-upload-schemas';
import { verificationToJson, verificationUrl } from './verification';

type Document = documentsV1.Document;
type VerificationResponse = verificationVerificationV1.VerificationResponse;

/** One entry of a docUpload response's documents[] (docs/architecture.md, "Wire details"). */
export type DocumentJson = z.input<typeof DocumentSchema>;

/** A docUpload VR with the documents of the upload, in the order the client listed its files. */
export type DocUploadJson = z.input<typeof DocUploadResponse>;

/** The upload PUT's answer for a file that was refused after its bytes arrived. */
export type RejectedDocumentJson = z.input<typeof UploadedDocument>;

/** The errorId of a file whose bytes turned out not to be an accepted document type. */
export const REJECTED_FILE_ERROR_ID = 'unsupportedDocMimeType';

/**
 * The gateway's own upload URL for a file. Clients only ever see this one: the object store's presigned URL
 * stays between the gateway and the store.
 */
export function uploadUrl(publicBaseUrl: string, uploadToken: string): string {
  return `${publicBaseUrl}/uploads/${encodeURIComponent(uploadToken)}`;
}

/** Where form A goes once every file is uploaded. */
export function completeDocUploadUrl(publicBaseUrl: string, verificationId: string): string {
  return `${verificationUrl(publicBaseUrl, verificationId)}/step/completeDocUpload`;
}

/** `publicBaseUrl` given: the entry carries its upload URL while the file awaits its bytes. */
export function documentToJson(d: Document, publicBaseUrl?: string): DocumentJson {
  return {
    documentId: d.documentId,
    status: documentStatusOf(d.status),
    mimeType: d.mimeType,
    fileSize: d.fileSize,
    ...(publicBaseUrl !== undefined && d.uploadToken
      ? { uploadUrl: uploadUrl(publicBaseUrl, d.uploadToken) }
      : {}),
    errors: [...d.errors],
  };
}

/**
 * Form A's 200: every file was accepted for upload. The client PUTs each file to its uploadUrl, then POSTs to
 * submissionUrl, which is completeDocUpload instead of the docUpload step the verification still is in.
 */
export function docUploadCreatedToJson(
  vr: VerificationResponse,
  documents: readonly Document[],
  publicBaseUrl: string,
): DocUploadJson {
  return {
    ...verificationToJson(vr, publicBaseUrl),
    submissionUrl: completeDocUploadUrl(publicBaseUrl, vr.verificationId),
    documents: documents.map((d) => documentToJson(d, publicBaseUrl)),
  };
}

/**
 * The 400 of a refused upload (either form): the docUpload VR as it stands, so the client can post again to
 * its submissionUrl, with each file's errors. `errorIds` replaces the VR's when the gateway names the cause
 * (a file refused after its bytes arrived). No upload URLs: nothing may be uploaded for a refused attempt.
 */
export function docUploadRefusedToJson(
  vr: VerificationResponse,
  documents: readonly Document[],
  publicBaseUrl: string,
  errorIds?: readonly string[],
): DocUploadJson {
  return {
    ...verificationToJson(errorIds ? { ...vr, errorIds: [...errorIds] } : vr, publicBaseUrl),
    documents: documents.map((d) => documentToJson(d)),
  };
}

/**
 * The status the documents service gives (a string in the contract): one the document lists, or a service
 * bug (500, logged), like an unspecified enum value elsewhere, rather than a value clients were not told of.
 */
function documentStatusOf(status: string): DocumentStatusName {
  const known = DocumentStatus.safeParse(status);
  if (!known.success) throw new Error(`documents service replied with document status ${status}`);
  return known.data;
}

/** The upload PUT's 400 for a file the documents service refused once it saw the bytes. */
export function rejectedDocumentToJson(d: Document): RejectedDocumentJson {
  return {
    ...documentToJson(d),
    errorIds: [REJECTED_FILE_ERROR_ID],
    systemErrorMessage: `The file was refused (${d.errors.join(', ') || 'REJECTED'})`,
  };
}
