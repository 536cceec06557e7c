import { failedPrecondition, notFound } from '@eligo/runtime';
import { isUuid } from '../domain';
import { objectKeysOfUploads } from '../repository/documents.repository';
import { cancelUploadRow, findUpload } from '../repository/uploads.repository';
import type { AppContext } from './context';
import { deleteDocumentObjects } from './objects';

/** Abandons an upload that was not completed and deletes its files; cancelling twice is harmless. */
export async function cancelUpload(ctx: AppContext, uploadId: string): Promise<void> {
  if (!isUuid(uploadId)) throw notFound('Upload not found');
  const keys = await ctx.db.transaction(async (trx) => {
    const upload = await findUpload(trx, uploadId, true);
    if (!upload) throw notFound('Upload not found');
    if (upload.status === 'submitted')
      throw failedPrecondition('A completed upload cannot be cancelled', { reason: 'uploadCompleted' });
    if (!(await cancelUploadRow(trx, uploadId, ctx.now()))) return [];
    return objectKeysOfUploads(trx, [uploadId]);
  });
  // A failure here, or a PUT still in flight, is caught up by the retention job once the PUT URLs expired.
  await deleteDocumentObjects(ctx.store, keys).catch(() => undefined);
}
