import type { ObjectStore } from '@eligo/runtime';

/**
 * How long the object store's PUT URL handed to the gateway lives: one file of at most 10 MiB is streamed
 * within it. It also bounds when a late PUT can still land on the key of a cancelled upload.
 */
export const PUT_URL_SECONDS = 300;

/** Built from ids only: a client's file name never reaches a storage key. */
export const objectKeyOf = (uploadId: string, documentId: string): string =>
  `documents/${uploadId}/${documentId}`;

// Deletes in flight at once: a retention batch can name a few hundred objects.
const PARALLEL_DELETES = 10;

/** Deletes the objects (absent ones included: a file may never have been sent). */
export async function deleteObjects(store: ObjectStore, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += PARALLEL_DELETES)
    await Promise.all(keys.slice(i, i + PARALLEL_DELETES).map((key) => store.delete(key)));
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
