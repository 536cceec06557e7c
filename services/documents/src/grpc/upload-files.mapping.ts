import { invalidArgument } from '@eligo/runtime';
import { documentsV1 } from '@eligo/proto';
import type { UploadFilesResult, UploadPart } from '../app/upload-files';
import { documentToProto, verificationToProto } from './mapping';

const outcomes = {
  COMPLETED: documentsV1.UploadOutcome.UPLOAD_OUTCOME_COMPLETED,
  REFUSED: documentsV1.UploadOutcome.UPLOAD_OUTCOME_REFUSED,
  REJECTED: documentsV1.UploadOutcome.UPLOAD_OUTCOME_REJECTED,
} as const;

/** UploadFiles' messages as the use case reads them; a message without a part is a bad request. */
export async function* uploadParts(
  requests: AsyncIterable<documentsV1.UploadFilesRequest>,
): AsyncGenerator<UploadPart> {
  for await (const { part } of requests) {
    if (part?.$case === 'chunk') yield { chunk: part.chunk };
    else if (part?.$case === 'file') yield { file: part.file };
    else if (part?.$case === 'start') yield { start: part.start };
    else throw invalidArgument('an upload message without a part', { errorIds: ['invalidRequest'] });
  }
}

export const uploadFilesResponseToProto = (r: UploadFilesResult): documentsV1.UploadFilesResponse => ({
  outcome: outcomes[r.outcome],
  verification: verificationToProto(r.verification),
  documents: r.outcome === 'COMPLETED' ? [] : r.documents.map(documentToProto),
});
