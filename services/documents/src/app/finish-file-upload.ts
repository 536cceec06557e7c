import { fileTypeFromBuffer } from 'file-type';
import { isObjectNotFound } from '@eligo/runtime';
import { hashUploadToken, isUploadTokenShaped, sniffVerdict, type SniffVerdict } from '../domain';
import {
  findByTokenHash,
  finishUpload,
  type DocumentRecord,
  type FinishedState,
} from '../repository/documents.repository';
import { unknownUploadUrl } from './begin-file-upload';
import type { AppContext } from './context';
import { incomingKeyOf, readHead, sealIncoming } from './objects';
import { documentView, type DocumentView } from './views';

// file-type reads at most this much of a file to recognise every type it knows.
const SNIFF_BYTES = 4100;

/**
 * After the gateway sent the bytes (or failed to): a file that did not arrive whole goes back to awaiting
 * its bytes (the same URL may be retried until it expires); one whose bytes are not of its declared, allowed
 * type is refused and deleted; anything else is sealed (encrypted at rest, the plaintext that arrived deleted)
 * and uploaded. A retry answers the document as it stands.
 */
export async function finishFileUpload(ctx: AppContext, token: string): Promise<DocumentView> {
  if (!isUploadTokenShaped(token)) throw unknownUploadUrl();
  const record = await findByTokenHash(ctx.db, hashUploadToken(token));
  if (!record) throw unknownUploadUrl();
  if (record.status !== 'UPLOADING') return documentView(ctx, record, token);

  const state = await inspect(ctx, record);
  // The store changes before the state says so: a failed seal or delete leaves the document UPLOADING, and a
  // retried finish does it again. A document is never UPLOADED while its bytes rest in the clear. Refused
  // or partial bytes: only what arrived goes (a sealed file here would be a concurrent finish's).
  if (state.status !== 'UPLOADED') await ctx.incoming.delete(incomingKeyOf(record.objectKey));
  const finished =
    state.status !== 'UPLOADED' || (await seal(ctx, record))
      ? await finishUpload(ctx.db, record.id, state)
      : undefined;
  // Another finish of the same PUT got there first: answer what it decided.
  const current = finished ?? (await findByTokenHash(ctx.db, record.tokenHash))!;
  return documentView(ctx, current, token);
}

/** False when the incoming bytes went meanwhile: another finish of the same PUT sealed them. */
async function seal(ctx: AppContext, record: DocumentRecord): Promise<boolean> {
  try {
    await sealIncoming(ctx.store, ctx.incoming, record);
    return true;
  } catch (err) {
    if (isObjectNotFound(err)) return false;
    throw err;
  }
}

async function inspect(ctx: AppContext, record: DocumentRecord): Promise<FinishedState> {
  const arrived = await ctx.incoming.stat(incomingKeyOf(record.objectKey)).then(
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
  const head = await readHead(ctx.incoming, incomingKeyOf(record.objectKey), SNIFF_BYTES);
  const detected = await fileTypeFromBuffer(head);
  return sniffVerdict(record.declaredMime, detected?.mime);
}
