import { isObjectNotFound, notFound } from '@eligo/runtime';
import { isUuid, parseHolder } from '../domain';
import { documentsOfUploads } from '../repository/documents.repository';
import { recordFileRead } from '../repository/file-reads.repository';
import { findReview } from '../repository/reviews.repository';
import type { AppContext } from './context';

/** What precedes a file's bytes: as stored (the declared type, checked against the sniffed one on upload). */
export interface ReviewFileInfo {
  documentId: string;
  contentType: string;
  size: number;
}

export type ReviewFilePart = { file: ReviewFileInfo } | { chunk: Buffer };

/** Store chunks larger than this are split, so a gRPC message stays far below the 4 MiB default limit. */
export const MAX_CHUNK = 256 * 1024;

const noFile = () => notFound('No such file in this review');

/**
 * One stored file of a review, for staff: its description, then its bytes decrypted chunk by chunk as the
 * store hands them over (never the whole file in memory; the caller's backpressure reaches the store). The
 * document must be one of the review's accepted files whose bytes retention has not deleted; anything else is
 * NOT_FOUND, told apart only by the message. The read is recorded (file_reads) before the first byte leaves;
 * if it cannot be, nothing is sent.
 */
export async function* readReviewFile(
  ctx: AppContext,
  input: { reviewId: string; documentId: string; reader: string },
): AsyncGenerator<ReviewFilePart> {
  const reader = parseHolder(input.reader, 'reader');
  const review = isUuid(input.reviewId) ? await findReview(ctx.db, input.reviewId) : undefined;
  if (!review) throw notFound('Review not found');
  const document = isUuid(input.documentId)
    ? (await documentsOfUploads(ctx.db, [review.uploadId])).find((d) => d.id === input.documentId)
    : undefined;
  if (!document || document.status !== 'UPLOADED') throw noFile();
  if (review.filesDeletedAt) throw notFound('The files of this review were deleted (retention)');

  const body = await ctx.store.get(document.objectKey).catch((err: unknown) => {
    if (isObjectNotFound(err)) throw notFound('The file is no longer stored');
    throw err;
  });
  try {
    await recordFileRead(ctx.db, {
      reviewId: review.id,
      documentId: document.id,
      reader,
      readAt: ctx.now(),
    });
    yield { file: { documentId: document.id, contentType: document.declaredMime, size: document.fileSize } };
    for await (const chunk of body as AsyncIterable<Buffer>)
      for (let at = 0; at < chunk.length; at += MAX_CHUNK)
        yield { chunk: chunk.subarray(at, at + MAX_CHUNK) };
  } finally {
    // A caller that went away (or a failure) ends the generator early: close the store's stream too.
    body.destroy();
  }
}
