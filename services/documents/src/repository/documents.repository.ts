import type { DocumentError, DocumentStatus } from '../domain';
import type { Db } from './db';

/** One file of an upload. The file name is still encrypted; the upload token exists only as its hash. */
export interface DocumentRecord {
  id: string;
  uploadId: string;
  /** 0-based place in the manifest. */
  position: number;
  fileNameEnc: Buffer;
  declaredMime: string;
  fileSize: number;
  detectedMime: string | null;
  status: DocumentStatus;
  errors: DocumentError[];
  tokenHash: Buffer;
  tokenExpiresAt: Date;
  objectKey: string;
  uploadStartedAt: Date | null;
  uploadedAt: Date | null;
}

interface Row {
  id: string;
  upload_id: string;
  position: number;
  file_name_enc: Buffer;
  declared_mime: string;
  file_size: string;
  detected_mime: string | null;
  status: DocumentStatus;
  errors: DocumentError[];
  token_hash: Buffer;
  token_expires_at: Date;
  object_key: string;
  upload_started_at: Date | null;
  uploaded_at: Date | null;
}

const toRecord = (r: Row): DocumentRecord => ({
  id: r.id,
  uploadId: r.upload_id,
  position: r.position,
  fileNameEnc: r.file_name_enc,
  declaredMime: r.declared_mime,
  // bigint comes back from pg as a string; sizes are at most 10 MiB.
  fileSize: Number(r.file_size),
  detectedMime: r.detected_mime,
  status: r.status,
  errors: r.errors,
  tokenHash: r.token_hash,
  tokenExpiresAt: r.token_expires_at,
  objectKey: r.object_key,
  uploadStartedAt: r.upload_started_at,
  uploadedAt: r.uploaded_at,
});

export type NewDocument = Pick<
  DocumentRecord,
  | 'id'
  | 'uploadId'
  | 'position'
  | 'fileNameEnc'
  | 'declaredMime'
  | 'fileSize'
  | 'tokenHash'
  | 'tokenExpiresAt'
  | 'objectKey'
> & {
  /** Form B: the bytes are in and sealed already (UPLOADED); form A's documents await theirs. */
  uploaded?: { detectedMime: string; uploadedAt: Date };
};

export async function insertDocuments(db: Db, docs: readonly NewDocument[]): Promise<void> {
  await insertDocumentsQuery(db, docs);
}

/** insertDocuments's statement, not run: a part of one statement with others (writeWithEvents). */
export function insertDocumentsQuery(db: Db, docs: readonly NewDocument[]) {
  return db('documents').insert(
    docs.map((d) => ({
      id: d.id,
      upload_id: d.uploadId,
      position: d.position,
      file_name_enc: d.fileNameEnc,
      declared_mime: d.declaredMime,
      file_size: d.fileSize,
      status: d.uploaded ? 'UPLOADED' : 'AWAITING_UPLOAD',
      ...(d.uploaded && {
        detected_mime: d.uploaded.detectedMime,
        upload_started_at: d.uploaded.uploadedAt,
        uploaded_at: d.uploaded.uploadedAt,
      }),
      token_hash: d.tokenHash,
      token_expires_at: d.tokenExpiresAt,
      object_key: d.objectKey,
    })),
  );
}

/** The documents of the uploads, by upload, in manifest order. */
export async function documentsOfUploads(db: Db, uploadIds: readonly string[]): Promise<DocumentRecord[]> {
  if (uploadIds.length === 0) return [];
  const rows = await db('documents')
    .whereIn('upload_id', uploadIds)
    .orderBy([{ column: 'upload_id' }, { column: 'position' }])
    .select<Row[]>('*');
  return rows.map(toRecord);
}

export async function objectKeysOfUploads(db: Db, uploadIds: readonly string[]): Promise<string[]> {
  if (uploadIds.length === 0) return [];
  const rows: { object_key: string }[] = await db('documents')
    .whereIn('upload_id', uploadIds)
    .select('object_key');
  return rows.map((r) => r.object_key);
}

/**
 * Of these documents, the object keys whose files may still be stored: neither their upload's files (a
 * cancelled upload) nor their review's (retention) were deleted for good.
 */
export async function liveObjectKeys(db: Db, documentIds: readonly string[]): Promise<string[]> {
  if (documentIds.length === 0) return [];
  const rows: { object_key: string }[] = await db('documents as d')
    .join('uploads as u', 'u.id', 'd.upload_id')
    .leftJoin('reviews as r', 'r.upload_id', 'u.id')
    .whereIn('d.id', documentIds)
    .whereNull('u.files_deleted_at')
    .whereNull('r.files_deleted_at')
    .select('d.object_key');
  return rows.map((r) => r.object_key);
}

export async function findByTokenHash(db: Db, tokenHash: Buffer): Promise<DocumentRecord | undefined> {
  const row = await db('documents').where({ token_hash: tokenHash }).first<Row | undefined>();
  return row ? toRecord(row) : undefined;
}

/**
 * Claims an upload token in one statement, so that two PUTs with the same token cannot both pass: a document
 * of an open upload awaiting its bytes with a live token (or one claimed by a PUT whose URL has expired
 * unused since `staleClaimBefore`) moves to UPLOADING. undefined when nothing was claimable.
 */
export async function claimToken(
  db: Db,
  tokenHash: Buffer,
  now: Date,
  staleClaimBefore: Date,
): Promise<DocumentRecord | undefined> {
  const result = await db.raw<{ rows: Row[] }>(
    `update documents d set status = 'UPLOADING', upload_started_at = :now
       from uploads u
      where u.id = d.upload_id and u.status = 'open'
        and d.token_hash = :tokenHash and d.token_expires_at > :now
        and (d.status = 'AWAITING_UPLOAD' or (d.status = 'UPLOADING' and d.upload_started_at < :stale))
      returning d.*`,
    { now, tokenHash, stale: staleClaimBefore },
  );
  const row = result.rows[0];
  return row ? toRecord(row) : undefined;
}

export type FinishedState =
  | { status: 'AWAITING_UPLOAD' }
  | { status: 'REJECTED'; errors: DocumentError[] }
  | { status: 'UPLOADED'; detectedMime: string; uploadedAt: Date };

/** UPLOADING -> the state the check found; undefined when the document was not UPLOADING any more. */
export async function finishUpload(
  db: Db,
  id: string,
  state: FinishedState,
): Promise<DocumentRecord | undefined> {
  const rows = await db('documents')
    .where({ id, status: 'UPLOADING' })
    .update({
      status: state.status,
      ...(state.status === 'REJECTED' ? { errors: state.errors } : {}),
      ...(state.status === 'UPLOADED'
        ? { detected_mime: state.detectedMime, uploaded_at: state.uploadedAt }
        : {}),
    })
    .returning<Row[]>('*');
  const row = rows[0];
  return row ? toRecord(row) : undefined;
}
