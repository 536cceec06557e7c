import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { internal } from '../errors/domain-error';

/**
 * Where the filesystem store keeps things under its root:
 *
 *   objects/<h[0..2]>/<h>.json              the object's record (metadata + which blob holds its bytes)
 *   objects/<h[0..2]>/<h>.<uuid>.blob       the bytes of one version
 *   tmp/<uuid>                              writes in progress (same filesystem, so rename is atomic)
 *
 * h is the SHA-256 of the key. Keys are never turned into paths: hashing removes traversal by construction,
 * lets "a" and "a/b" coexist (a file cannot also be a directory), and keeps "A" and "a" apart on
 * case-insensitive filesystems (macOS laptops). The record names the key, so an operator can still grep.
 *
 * The record is the commit point: a put writes a new blob, then atomically renames a new record over the old
 * one, so readers see either the old object or the new one, with matching size and content type, never a mix.
 */
export interface FsObjectRecord {
  version: 1;
  key: string;
  size: number;
  contentType: string;
  etag: string;
  /** ISO 8601 */
  lastModified: string;
  /** File name (not path) of the blob in the record's directory. */
  blob: string;
}

const BLOB_NAME = /^[0-9a-f]{64}\.[0-9a-f-]{36}\.blob$/;

export class FsLayout {
  readonly tmpDir: string;
  private readonly objectsDir: string;

  constructor(rootDir: string) {
    this.tmpDir = join(rootDir, 'tmp');
    this.objectsDir = join(rootDir, 'objects');
  }

  dirOf(key: string): string {
    return join(this.objectsDir, hashKey(key).slice(0, 2));
  }

  recordPath(key: string): string {
    return join(this.dirOf(key), `${hashKey(key)}.json`);
  }

  newBlobName(key: string): string {
    return `${hashKey(key)}.${randomUUID()}.blob`;
  }

  blobPath(key: string, blobName: string): string {
    // The record is a file on disk; do not let its contents choose a path outside the object's directory.
    if (!BLOB_NAME.test(blobName)) throw internal('corrupt object record');
    return join(this.dirOf(key), blobName);
  }

  newTmpPath(): string {
    return join(this.tmpDir, randomUUID());
  }

  /** The key's record, or undefined when the object does not exist. */
  async readRecord(key: string): Promise<FsObjectRecord | undefined> {
    const record = await readRecordFile(this.recordPath(key));
    if (record && record.key !== key) throw internal('corrupt object record');
    return record;
  }

  /**
   * Every record, one directory at a time (keys are hashed, so a prefix cannot narrow the walk). Objects
   * deleted while the walk runs are skipped; one written meanwhile may or may not be seen.
   */
  async *records(): AsyncGenerator<FsObjectRecord> {
    for (const dir of await listDir(this.objectsDir)) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const name of await listDir(join(this.objectsDir, dir))) {
        if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
        const record = await readRecordFile(join(this.objectsDir, dir, name));
        if (record) yield record;
      }
    }
  }

  /** Replaces the key's record in one rename (the directory must exist). */
  async writeRecord(record: FsObjectRecord): Promise<void> {
    const tmp = this.newTmpPath();
    try {
      await writeFile(tmp, JSON.stringify(record), { flag: 'wx' });
      await rename(tmp, this.recordPath(record.key));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}

/** A record file's contents, or undefined when it does not exist (any more). */
async function readRecordFile(path: string): Promise<FsObjectRecord | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isNotFoundError(err)) return undefined;
    throw err;
  }
  const record = JSON.parse(text) as FsObjectRecord;
  if (record.version !== 1 || typeof record.key !== 'string') throw internal('corrupt object record');
  return record;
}

/** A directory's entries; none when it does not exist (nothing was stored yet). */
async function listDir(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (err) {
    if (isNotFoundError(err)) return [];
    throw err;
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isNotFoundError(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
