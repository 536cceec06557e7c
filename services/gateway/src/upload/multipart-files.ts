import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { documentsV1Lean, type documentsV1 } from '@eligo/proto';
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

type UploadFilesRequest = documentsV1.UploadFilesRequest;

/**
 * Size of the `chunk` messages. A part arrives in socket-sized chunks (16-64 KiB); a message each would be
 * several hundred per file, each with its own framing and write. 256 KiB keeps that to a few dozen per file
 * while the memory held stays one such buffer per upload, far below gRPC's 4 MiB message limit.
 */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

/**
 * Joins a stream's chunks into pieces of at least UPLOAD_CHUNK_BYTES (the last one may be shorter), each in
 * memory with room for its message's header (allocUploadChunk): the one copy of a file's bytes between the
 * socket and the documents service when both share a process.
 */
export async function* coalesce(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= UPLOAD_CHUNK_BYTES) {
      yield join(chunks, size);
      chunks = [];
      size = 0;
    }
  }
  if (size > 0) yield join(chunks, size);
}

function join(chunks: Buffer[], size: number): Buffer {
  const joined = documentsV1Lean.allocUploadChunk(size);
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(joined, at);
  return joined;
}

/** The client's going away; never a server failure to log as one. */
const endedEarly = () => invalidRequest('The request body ended early');

/**
 * The files of a form B body as UploadFiles messages (`file`, then its `chunk`s, per file part), read as they
 * arrive: the body is pulled from the socket only as fast as the messages are taken, so memory stays flat
 * whatever its size. An oversized file is forwarded up to busboy's limit (one byte past the maximum), which the
 * service refuses as TOO_LARGE; busboy discards the rest of it. Throws (and stops reading) at the first part
 * that breaks a rule, a fourth file, a body over the limit, a malformed body or a client that goes away; the
 * caller closes the connection, since the rest of the body is left unread. Ends without an error only once the
 * whole body was read: a half-read one must never look complete to the service.
 *
 * `signal`: aborted once the request is over (answered, or the client went away); reading stops there, also
 * when a `next()` is still waiting for the body, which the consumer's return() would not interrupt.
 *
 * Throws at once, before any reading, when the Content-Type gives no boundary.
 */
export function multipartFiles(
  req: IncomingMessage,
  signal: AbortSignal,
): AsyncGenerator<UploadFilesRequest, void, undefined> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: multipartLimits });
  } catch {
    // No boundary, or not multipart after all.
    throw invalidRequest('Content-Type multipart/form-data needs a boundary');
  }
  return forward(req, parser, signal);
}

interface FilePart {
  fileName: string;
  mimeType: string;
  stream: Readable;
}

async function* forward(
  req: IncomingMessage,
  parser: busboy.Busboy,
  signal: AbortSignal,
): AsyncGenerator<UploadFilesRequest, void, undefined> {
  // Parts busboy has opened and that are not forwarded yet: a part's stream ends (for busboy) before its bytes
  // are read, so the next one may open meanwhile. Each holds at most its stream's buffer.
  const waiting: FilePart[] = [];
  const names: string[] = [];
  const streams: Readable[] = [];
  let failure: unknown;
  let parsed = false;
  let wake = () => {};

  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_MULTIPART_BYTES) fail(multipartTooLarge());
  };
  const clientError = () => fail(endedEarly());
  const clientClosed = () => {
    if (!req.complete) fail(endedEarly());
  };
  const stopped = () => fail(endedEarly());
  const stop = () => {
    req.unpipe(parser);
    req.off('data', count);
    req.off('error', clientError);
    req.off('close', clientClosed);
    signal.removeEventListener('abort', stopped);
    // Also the parts not forwarded yet: busboy waits for each to be read, and nothing will read them now.
    for (const stream of streams) stream.destroy();
  };
  function fail(err: unknown) {
    if (failure !== undefined || parsed) return;
    failure = err;
    stop();
    wake();
  }

  parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
    // A part after a failure (busboy may still be parsing the chunk in hand) is discarded unread.
    const problem = failure ?? filePartProblem(name, info, names);
    if (problem) {
      stream.resume();
      return fail(problem);
    }
    names.push(name);
    streams.push(stream);
    waiting.push({ fileName: info.filename, mimeType: info.mimeType, stream });
    wake();
  });
  parser.on('field', (name: string) => fail(fieldPartProblem(name)));
  parser.on('filesLimit', () => fail(tooManyFiles()));
  parser.on('error', () => fail(invalidRequest('The multipart/form-data body is malformed')));
  // Only once every part was read to its end (busboy waits for its file streams).
  parser.on('close', () => {
    if (failure !== undefined) return;
    parsed = true;
    wake();
  });
  if (signal.aborted) throw endedEarly();
  signal.addEventListener('abort', stopped, { once: true });
  req.on('data', count);
  // The socket's own error (ECONNRESET "aborted") is the client's doing, never a server failure.
  req.on('error', clientError);
  req.on('close', clientClosed);
  req.pipe(parser);

  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      const part = waiting.shift();
      if (part) {
        yield { part: { $case: 'file', file: { fileName: part.fileName, mimeType: part.mimeType } } };
        try {
          for await (const chunk of coalesce(part.stream)) yield { part: { $case: 'chunk', chunk } };
        } catch (err) {
          // A stream destroyed by a failure reports only that it closed early; the failure is the reason.
          throw failure ?? err;
        }
        continue;
      }
      if (parsed) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // Also a consumer that stopped early (the call failed first): nothing is left reading or listening.
    stop();
  }
}
