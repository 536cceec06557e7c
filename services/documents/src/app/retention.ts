import { objectKeysOfUploads } from '../repository/documents.repository';
import { lockReviewsToPurge, markReviewFilesDeleted } from '../repository/reviews.repository';
import {
  lockAbandonedUploads,
  lockCancelledToPurge,
  markUploadsCancelledAndPurged,
} from '../repository/uploads.repository';
import type { AppContext } from './context';
import { deleteDocumentObjects, PUT_URL_SECONDS } from './objects';

export const RETENTION_BATCH = 100;
/** An open upload is abandoned this long after its tokens expired (a client may still be finishing). */
export const ABANDONED_AFTER_EXPIRY_MS = 60 * 60 * 1000;
/**
 * A cancelled upload's files are deleted for good this long after the cancellation: by then every PUT URL
 * handed out for it has expired, and a slow PUT that started just before has had time to end.
 */
export const CANCELLED_PURGE_DELAY_MS = PUT_URL_SECONDS * 1000 + 10 * 60 * 1000;

/**
 * One pass of the retention job. Documents are personal data kept only as long as needed: the files of a
 * decided review are deleted once the retention period is over (the review row stays, for the record);
 * uploads abandoned before completion are cancelled and their files deleted; cancelled uploads get their
 * files deleted once more after any PUT URL that was handed out expired (a late PUT may have landed).
 * Rows are locked with SKIP LOCKED, so replicas share the work. Returns true when a batch was full.
 */
export async function runRetention(ctx: AppContext, limit = RETENTION_BATCH): Promise<boolean> {
  const reviews = await purgeDecidedReviews(ctx, limit);
  const abandoned = await purgeAbandonedUploads(ctx, limit);
  const cancelled = await purgeCancelledUploads(ctx, limit);
  return reviews || abandoned || cancelled;
}

async function purgeDecidedReviews(ctx: AppContext, limit: number): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    const now = ctx.now();
    const reviews = await lockReviewsToPurge(trx, new Date(now.getTime() - ctx.retentionMs), limit);
    await deleteDocumentObjects(
      ctx.store,
      await objectKeysOfUploads(
        trx,
        reviews.map((r) => r.uploadId),
      ),
    );
    await markReviewFilesDeleted(
      trx,
      reviews.map((r) => r.id),
      now,
    );
    return reviews.length === limit;
  });
}

async function purgeAbandonedUploads(ctx: AppContext, limit: number): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    const now = ctx.now();
    // Every token of these uploads expired an hour ago, so no PUT URL of theirs is alive: one delete suffices.
    const createdBefore = new Date(now.getTime() - ctx.uploadUrlTtlMs - ABANDONED_AFTER_EXPIRY_MS);
    const ids = await lockAbandonedUploads(trx, createdBefore, limit);
    await deleteDocumentObjects(ctx.store, await objectKeysOfUploads(trx, ids));
    await markUploadsCancelledAndPurged(trx, ids, now);
    return ids.length === limit;
  });
}

async function purgeCancelledUploads(ctx: AppContext, limit: number): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    const now = ctx.now();
    const ids = await lockCancelledToPurge(trx, new Date(now.getTime() - CANCELLED_PURGE_DELAY_MS), limit);
    await deleteDocumentObjects(ctx.store, await objectKeysOfUploads(trx, ids));
    await markUploadsCancelledAndPurged(trx, ids, now);
    return ids.length === limit;
  });
}
