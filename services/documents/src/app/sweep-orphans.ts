import { sweepOrphans } from '@eligo/runtime';
import { liveObjectKeys } from '../repository/documents.repository';
import type { AppContext } from './context';
import { documentIdOfKey } from './objects';

/**
 * One pass of the orphan sweep: deletes what rests under documents/ that no live document refers to, once it
 * is older than the grace period (a crash between a store write and its row, a row removed by hand, a file
 * retention already deleted). Incoming objects (bytes in the clear as the client sent them) are never
 * referred to: FinishFileUpload seals them within moments, so one past the grace was abandoned, and the
 * client may send it again. The store is listed whole each pass; replicas may sweep at once (deletes are
 * idempotent).
 */
export async function sweepDocumentOrphans(ctx: AppContext): Promise<boolean> {
  await sweepOrphans(ctx.store, {
    prefix: 'documents/',
    writtenBefore: new Date(ctx.now().getTime() - ctx.orphanGraceMs),
    referenced: async (keys) => {
      const ids = keys.map(documentIdOfKey).filter((id): id is string => id !== undefined);
      return new Set(await liveObjectKeys(ctx.db, ids));
    },
  });
  return false;
}
