import { z } from 'zod';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import type { VerificationResponseJson } from '../mapping/verification';
import { MAX_FILE_NAME_LENGTH, MAX_MIME_TYPE_LENGTH } from '../validation/multipart-parts';
import { codePointString, componentRef } from './schemas';
import { integerValue } from './schemas-numbers';

/**
 * The bodies of the docUpload step and of the upload PUT (endpoints/doc-upload.ts): form A's manifest, the
 * documents[] entries of its answers, and the file after its upload. The admin API's review queue shows the
 * same documents (endpoints/admin-review-schemas.ts states them there with the same status and errors).
 */

export const DocumentStatus = z.enum(['AWAITING_UPLOAD', 'UPLOADING', 'UPLOADED', 'REJECTED']);

export const DocumentErrors = z.array(z.string()).meta({
  description: 'Why the file was refused: ZERO_SIZE, TOO_LARGE or UNSUPPORTED_TYPE.',
  examples: [['TOO_LARGE']],
});

/** Sizes are whole bytes; the document states no upper bound for them (a response is never refused). */
const byteCount = () => integerValue().min(0);

export const DocUploadRequest = z
  .strictObject({
    files: z
      .array(
        z.strictObject({
          fileName: codePointString(1, MAX_FILE_NAME_LENGTH),
          mimeType: codePointString(1, MAX_MIME_TYPE_LENGTH).meta({ examples: ['image/png'] }),
          fileSize: z
            .int()
            .min(0)
            .max(Number.MAX_SAFE_INTEGER)
            .meta({
              description: `Bytes; 0 is refused as ZERO_SIZE, more than ${MAX_FILE_BYTES} as TOO_LARGE.`,
            }),
        }),
      )
      // Counting 1 to 3 is the service's (the step error invalidNumberOfFiles); this only bounds the body.
      .max(10),
  })
  .meta({
    id: 'DocUploadRequest',
    description:
      'Form A: the files to upload, 1 to 3 (more or none is the step error invalidNumberOfFiles). Each file ' +
      `of at most 10 MB (${MAX_FILE_BYTES} bytes), JPEG, PNG, GIF or PDF.`,
  });

export const Document = z
  .object({
    documentId: z.string(),
    status: DocumentStatus,
    mimeType: z.string(),
    fileSize: byteCount(),
    uploadUrl: z
      .url()
      .meta({
        description:
          'Form A, while the file awaits its bytes: PUT the raw file here (no token, Content-Length required; ' +
          'it works once).',
      })
      .optional(),
    errors: DocumentErrors,
  })
  .meta({ id: 'Document' });

export const DocUploadResponse = z
  .intersection(
    componentRef<VerificationResponseJson>('VerificationResponse'),
    z.object({ documents: z.array(Document) }),
  )
  .meta({
    id: 'DocUploadResponse',
    description:
      'The VR of the docUpload step with the documents, in the order of the request. After form A is ' +
      'accepted, submissionUrl is …/step/completeDocUpload.',
  });

export const UploadedDocument = z
  .object({
    documentId: z.string(),
    status: DocumentStatus,
    mimeType: z.string(),
    fileSize: byteCount(),
    errors: DocumentErrors,
    errorIds: z
      .array(z.string())
      .meta({ examples: [['unsupportedDocMimeType']] })
      .optional(),
    systemErrorMessage: z.string().optional(),
  })
  .meta({
    id: 'UploadedDocument',
    description: 'A file after its upload. A refused one (400) also has errorIds [unsupportedDocMimeType].',
  });

export type DocumentStatusName = z.infer<typeof DocumentStatus>;
