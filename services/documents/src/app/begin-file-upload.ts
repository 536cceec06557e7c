import { notFound } from '@eligo/runtime';
import { hashUploadToken, isUploadTokenShaped } from '../domain';
import { claimToken, findByTokenHash } from '../repository/documents.repository';
import type { AppContext } from './context';
import { incomingKeyOf, PUT_URL_SECONDS } from './objects';

// SEM bodies: an upload URL is not a verification, so there is no errorId to show.
export const unknownUploadUrl = () => notFound('Upload URL not found');
const usedUploadUrl = () => notFound('Upload URL expired or already used', { reason: 'uploadUrlUsed' });

/** Where the gateway sends one file's bytes, and what it must check of them first. */
export interface FileUploadTarget {
  documentId: string;
  /** The object store's presigned PUT URL, valid for PUT_URL_SECONDS; never shown to clients. */
  putUrl: string;
  /** The declared size: a body of any other length is refused before it is sent on. */
  fileSize: number;
  mimeType: string;
}

/**
 * The gateway's PUT {base}/uploads/{token}: claims the token (one PUT at a time, and none once the file is
 * in) and answers where the bytes go. The object store's URL is never shown to clients.
 */
export async function beginFileUpload(ctx: AppContext, token: string): Promise<FileUploadTarget> {
  if (!isUploadTokenShaped(token)) throw unknownUploadUrl();
  const hash = hashUploadToken(token);
  const now = ctx.now();
  // A claim whose PUT URL expired unused was abandoned (the gateway went away): the file may be sent again.
  const staleClaimBefore = new Date(now.getTime() - PUT_URL_SECONDS * 1000);
  const claimed = await claimToken(ctx.db, hash, now, staleClaimBefore);
  if (!claimed) throw (await findByTokenHash(ctx.db, hash)) ? usedUploadUrl() : unknownUploadUrl();
  // The bytes go straight to the store, so they land in the clear: under the incoming key, sealed at finish.
  const putUrl = await ctx.incoming.presignPut(incomingKeyOf(claimed.objectKey), {
    expiresInSeconds: PUT_URL_SECONDS,
  });
  return {
    documentId: claimed.id,
    putUrl,
    fileSize: claimed.fileSize,
    mimeType: claimed.declaredMime,
  };
}
