import { fileTypeFromBuffer } from 'file-type';
import type { documentsV1 } from '@eligo/proto';
import { isObjectNotFound } from '@eligo/runtime';
import { sniffVerdict, type SniffVerdict } from '../domain';
import {
  findByTokenHash,
  finishUpload,
  type DocumentRecord,
  type FinishedState,
} from '../repository/documents.repository';
import { unknownUploadUrl } from './begin-file-upload';
import type { AppContext } from './context';
import { readHead } from './objects';
import { hashUploadToken, isUploadTokenShaped } from './tokens';
import { documentView } from './views';

// file-type reads at most this much of a file to recognise every type it knows.
const SNIFF_BYTES = 4100;

/**
 * After the gateway sent the bytes (or failed to): a file that did not arrive whole goes back to awaiting
 * its bytes (the same URL may be retried until it expires); one whose bytes are not of its declared, allowed
 * type is refused and deleted; anything else is uploaded. A retry answers the document as it stands.
 */
export async function finishFileUpload(ctx: AppContext, token: string): Promise<documentsV1.Document> {
  if (!isUploadTokenShaped(token)) throw unknownUploadUrl();
  const record = await findByTokenHash(ctx.db, hashUploadToken(token));
  if (!record) throw unknownUploadUrl();
  if (record.status !== 'UPLOADING') return documentView(ctx, record, token);

  const state = await inspect(ctx, record);
  // Refused or partial bytes go before the state says so: a failed delete leaves the document UPLOADING, and
  // a retried finish deletes again.
  if (state.status !== 'UPLOADED') await ctx.store.delete(record.objectKey);
  const finished = await finishUpload(ctx.db, record.id, state);
  // Another finish of the same PUT got there first: answer what it decided.
  const current = finished ?? (await findByTokenHash(ctx.db, record.tokenHash))!;
  return documentView(ctx, current, token);
}

async function inspect(ctx: AppContext, record: DocumentRecord): Promise<FinishedState> {
  const arrived = await ctx.store.stat(record.objectKey).then(
    (stat) => stat.size === record.fileSize,
    (err: unknown) => {
      if (isObjectNotFound(err)) return false;
      throw err;
    },
  );
  if (!arrived) return { status: 'AWAITING_UPLOAD' };
  const verdict = await sniff(ctx, record);
  return verdict.accepted
    ? { status: 'UPLOADED', detectedMime: verdict.detectedMimeType, uploadedAt: ctx.now() }
    : { status: 'REJECTED', errors: ['UNSUPPORTED_TYPE'] };
}

async function sniff(ctx: AppContext, record: DocumentRecord): Promise<SniffVerdict> {
  const head = await readHead(ctx.store, record.objectKey, SNIFF_BYTES);
  const detected = await fileTypeFromBuffer(head);
  return sniffVerdict(record.declaredMime, detected?.mime);
}
