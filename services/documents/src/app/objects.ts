import {
  createEncryptedObjectStore,
  deleteObjects,
  type EncryptedObjectStore,
  type ObjectStore,
} from '@eligo/runtime';

/**
 * How long the object store's PUT URL handed to the gateway lives: one file of at most 10 MiB is streamed
 * within it. It also bounds when a late PUT can still land on the key of a cancelled upload.
 */
export const PUT_URL_SECONDS = 300;

/** Where this process's HTTP server serves review links (the files decrypted), below the link base URL. */
export const REVIEW_FILES_PATH = '/review-files';

/** Built from ids only: a client's file name never reaches a storage key. */
export const objectKeyOf = (uploadId: string, documentId: string): string =>
  `documents/${uploadId}/${documentId}`;

/** The document id in a key objectKeyOf built; undefined for any other key. */
export function documentIdOfKey(key: string): string | undefined {
  return /^documents\/[0-9a-f-]{36}\/([0-9a-f-]{36})$/.exec(key)?.[1];
}

/**
 * Where a document's bytes land as the client sends them: the gateway PUTs them straight to the object
 * store's presigned URL, so they arrive in the clear. They stay only until FinishFileUpload seals them under
 * the document's key and deletes this object (or the orphan sweep deletes it, past the grace period).
 */
export const incomingKeyOf = (objectKey: string): string => `${objectKey}.incoming`;

export const isIncomingKey = (key: string): boolean => key.endsWith('.incoming');

/**
 * Document files at rest: sealed with a key derived from the master key (purpose "documents"); review links
 * name this process's own router (REVIEW_FILES_PATH below `linkBaseUrl`), which decrypts as it streams.
 */
export function documentFileStore(
  inner: ObjectStore,
  masterKey: Buffer,
  linkBaseUrl: string,
): EncryptedObjectStore {
  return createEncryptedObjectStore({
    inner,
    masterKey,
    purpose: 'documents',
    publicBaseUrl: `${linkBaseUrl}${REVIEW_FILES_PATH}`,
  });
}

/** Deletes everything stored for the documents: their sealed files and anything still incoming. */
export async function deleteDocumentObjects(
  store: ObjectStore,
  objectKeys: readonly string[],
): Promise<void> {
  await deleteObjects(
    store,
    objectKeys.flatMap((key) => [key, incomingKeyOf(key)]),
  );
}

/**
 * Encrypts what arrived for a document into its own key, then deletes the plaintext: from here on the
 * document rests sealed only. `size` is checked again as the bytes are read.
 */
export async function sealIncoming(
  files: ObjectStore,
  incoming: ObjectStore,
  document: { objectKey: string; declaredMime: string; fileSize: number },
): Promise<void> {
  const key = incomingKeyOf(document.objectKey);
  await files.put(document.objectKey, await incoming.get(key), {
    contentType: document.declaredMime,
    size: document.fileSize,
  });
  await incoming.delete(key);
}

/** The first `bytes` bytes of an object (fewer if it is shorter); the rest is never downloaded. */
export async function readHead(store: ObjectStore, key: string, bytes: number): Promise<Buffer> {
  const stream = await store.get(key);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      length += buffer.length;
      if (length >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
