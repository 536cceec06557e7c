import { randomUUID } from 'node:crypto';
import type { Db } from './db';

/** One read of a review's file by staff: ids and the reader only. */
export interface FileRead {
  reviewId: string;
  documentId: string;
  /** `operator` or `staff:<staffId>`. */
  reader: string;
  readAt: Date;
}

export async function recordFileRead(db: Db, read: FileRead): Promise<void> {
  await db('file_reads').insert({
    id: randomUUID(),
    review_id: read.reviewId,
    document_id: read.documentId,
    reader: read.reader,
    read_at: read.readAt,
  });
}

/** The reads of a review's files, oldest first (file_reads_review_idx). */
export async function fileReadsOfReview(db: Db, reviewId: string): Promise<FileRead[]> {
  const rows: { review_id: string; document_id: string; reader: string; read_at: Date }[] = await db(
    'file_reads',
  )
    .where({ review_id: reviewId })
    .orderBy('read_at')
    .select('review_id', 'document_id', 'reader', 'read_at');
  return rows.map((r) => ({
    reviewId: r.review_id,
    documentId: r.document_id,
    reader: r.reader,
    readAt: r.read_at,
  }));
}
