import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { unavailable, type ObjectStore } from '@eligo/runtime';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { isAllowedMimeType, normaliseMimeType, sniffVerdict, type SniffVerdict } from '../domain';

// file-type reads at most this much of a file to recognise every type it knows.
export const SNIFF_BYTES = 4100;

/** 502 (reason documentStoreFailed): the store did not take a file; nothing was kept, the client sends again. */
export const documentStoreFailed = (cause?: unknown) =>
  unavailable('The file could not be stored; upload it again', { reason: 'documentStoreFailed', cause });

/**
 * One file of form B as its bytes stream in: counted, sniffed from its first bytes, and sealed into the
 * store (the sealed store encrypts as it writes) only while it can still be accepted. A file whose declared
 * type is not allowed, whose bytes are not that type, or that grows past the maximum is only counted from
 * then on: its answer is a refusal, and nothing of it needs to be kept.
 */
export class FileIntake {
  size = 0;
  /** Set once the first SNIFF_BYTES (or the whole, shorter file) are in. */
  verdict: SniffVerdict | undefined;
  private head: Buffer[] = [];
  private headBytes = 0;
  private readonly declaredAllowed: boolean;
  private storing: { input: PassThrough; done: Promise<void> } | undefined;
  /** True once bytes went to the store: its object must be deleted if the upload is not kept. */
  touchedStore = false;

  constructor(
    private readonly store: ObjectStore,
    readonly documentId: string,
    readonly objectKey: string,
    readonly fileName: string,
    readonly declaredMime: string,
  ) {
    this.declaredAllowed = isAllowedMimeType(normaliseMimeType(declaredMime));
  }

  /** Sniffed and of its declared, allowed type: what the upload keeps. */
  get accepted(): boolean {
    return this.verdict?.accepted === true && this.size > 0 && this.size <= MAX_FILE_BYTES;
  }

  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.size > MAX_FILE_BYTES || !this.declaredAllowed) return this.abort();
    if (this.storing) return this.send(chunk);
    if (this.verdict) return; // refused by its bytes: counted only
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes >= SNIFF_BYTES) await this.sniffThenStore();
  }

  /** The last byte is in: a file shorter than the sniffed head is judged and stored now. */
  async close(): Promise<void> {
    if (!this.verdict && this.declaredAllowed && this.size > 0 && this.size <= MAX_FILE_BYTES)
      await this.sniffThenStore();
    const storing = this.storing;
    if (!storing) return;
    storing.input.end();
    try {
      await storing.done;
    } catch (err) {
      throw documentStoreFailed(err);
    }
  }

  /** Stops a write in flight (the upload is not kept); the caller deletes what reached the store. */
  async abort(): Promise<void> {
    const storing = this.storing;
    if (!storing) return;
    this.storing = undefined;
    storing.input.destroy(new Error('the upload is not kept'));
    await storing.done.catch(() => undefined);
  }

  private async sniffThenStore(): Promise<void> {
    const head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    const detected = await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES));
    this.verdict = sniffVerdict(this.declaredMime, detected?.mime);
    if (!this.verdict.accepted) return;
    const input = new PassThrough({ highWaterMark: 256 * 1024 });
    const done = this.store.put(this.objectKey, input, { contentType: normaliseMimeType(this.declaredMime) });
    // Awaited in close() or abort(); a failure before then is seen by the next send.
    done.catch(() => undefined);
    this.storing = { input, done: done.then(() => undefined) };
    this.touchedStore = true;
    await this.send(head);
  }

  /** Back-pressure from the store to the caller's stream: wait for the store to read, or for it to fail. */
  private async send(chunk: Buffer): Promise<void> {
    const storing = this.storing!;
    if (storing.input.write(chunk)) return;
    try {
      await Promise.race([once(storing.input, 'drain'), storing.done]);
    } catch (err) {
      throw documentStoreFailed(err);
    }
  }
}
