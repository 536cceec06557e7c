import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import {
  fieldPartProblem,
  invalidRequest,
  filePartProblem,
  MAX_MULTIPART_BYTES,
  multipartLimits,
  multipartTooLarge,
  tooManyFiles,
} from '../validation/multipart-parts';

/**
 * Size of the writes to the spool. A part arrives in socket-sized chunks (16-64 KiB); writing each one is a
 * system call, and on a busy machine those calls, not the copying, were most of what a spooled upload cost.
 * Joining them into 1 MiB writes keeps memory bounded (one such buffer per file being read) and flat.
 */
export const SPOOL_WRITE_BYTES = 1024 * 1024;

/** Joins a stream's chunks into writes of at least SPOOL_WRITE_BYTES (the last one may be shorter). */
export async function* coalesce(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= SPOOL_WRITE_BYTES) {
      yield Buffer.concat(chunks, size);
      chunks = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(chunks, size);
}

/** One file of a form B body, written to disk. */
export interface SpooledFile {
  part: string;
  fileName: string;
  mimeType: string;
  /** Bytes written: the file's size, or the busboy limit (one past the maximum) for an oversized one. */
  size: number;
  path: string;
}

/**
 * Reads a multipart/form-data body into files under `dir` (a private temp directory the caller creates and
 * removes), one at a time as the parts arrive, with back-pressure from disk to socket: memory stays flat
 * whatever the size of the body. Rejects (and stops reading) at the first part that breaks a rule, a fourth
 * file, a body over the limit, a malformed body or a client that goes away; the caller answers and closes the
 * connection, since the rest of the body is left unread.
 */
export async function spoolMultipart(req: IncomingMessage, dir: string): Promise<SpooledFile[]> {
  const files: SpooledFile[] = [];
  const writes: Promise<void>[] = [];
  const streams: (Readable | WriteStream)[] = [];
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: multipartLimits });
  } catch {
    // No boundary, or not multipart after all.
    throw invalidRequest('Content-Type multipart/form-data needs a boundary');
  }

  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_MULTIPART_BYTES) fail(multipartTooLarge());
  };
  const stop = () => {
    req.unpipe(parser);
    req.off('data', count);
    // Both ends of every copy: a part that busboy had ended but that was not read yet would otherwise
    // leave its pipeline waiting for a file that never closes.
    for (const stream of streams) stream.destroy();
  };
  let fail: (err: unknown) => void = () => undefined;
  const parsed = new Promise<void>((resolve, reject) => {
    let settled = false;
    fail = (err) => {
      if (settled) return;
      settled = true;
      stop();
      reject(err);
    };

    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
      const problem = filePartProblem(
        name,
        info,
        files.map((f) => f.part),
      );
      if (problem) {
        stream.resume();
        return fail(problem);
      }
      const path = join(dir, `file-${files.length + 1}`);
      const file: SpooledFile = {
        part: name,
        fileName: info.filename,
        mimeType: info.mimeType,
        size: 0,
        path,
      };
      files.push(file);
      // 0600 in a 0700 directory: the documents hold personal data.
      const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      streams.push(stream, out);
      const write = pipeline(stream, coalesce, out).then(() => {
        file.size = out.bytesWritten;
      });
      write.catch(fail);
      writes.push(write);
    });
    parser.on('field', (name: string) => fail(fieldPartProblem(name)));
    parser.on('filesLimit', () => fail(tooManyFiles()));
    parser.on('error', () => fail(invalidRequest('The multipart/form-data body is malformed')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    req.on('data', count);
    // A client that goes away mid-body: nothing is left to answer, but the spooled files must go. The socket's
    // own error (ECONNRESET "aborted") is the client's doing, never a server failure to log as one.
    req.on('error', () => fail(invalidRequest('The request body ended early')));
    req.on('close', () => {
      if (!req.complete) fail(invalidRequest('The request body ended early'));
    });
    req.pipe(parser);
  });

  try {
    await parsed;
    await Promise.all(writes);
    return files;
  } catch (err) {
    stop();
    // Every file is closed before the caller removes the directory.
    await Promise.allSettled(writes);
    throw err;
  }
}
