import { Transform, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Request } from 'express';
import { invalidArgument } from '@eligo/runtime';

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than the limit of ${maxBytes} bytes (ELIGO_GATEWAY_IMPORT_MAX_BYTES)`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Passes bytes through and fails once more than maxBytes went by. Counting while streaming is the only
 * check that holds: Content-Length may be absent (chunked uploads) or wrong.
 */
export function byteLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? new BodyTooLargeError(maxBytes) : null, chunk);
    },
  });
}

/**
 * Hands an import the request body as a stream, never holding it: bytes are counted on the way
 * (BodyTooLargeError past maxBytes). When the import stops early the rest of the body is read and dropped
 * before the answer, as body-parser does, so that clients still sending get the status instead of a reset
 * connection. The import's own errors come out as they are, for it to answer them.
 */
export async function streamRequestBody<T>(
  req: Request,
  maxBytes: number,
  consume: (body: Readable) => Promise<T>,
): Promise<T> {
  const declared = Number(req.headers['content-length']);
  const counter = byteLimit(maxBytes);
  // A client that hangs up mid-file ends the import; no one reads the answer, and it is no server failure.
  const clientGone = () => {
    if (!req.readableEnded)
      counter.destroy(
        invalidArgument('the connection closed before the end of the file', { errorIds: ['invalidRequest'] }),
      );
  };
  req.once('close', clientGone);
  try {
    // A declared size over the limit is refused before a single row reaches the service.
    if (declared > maxBytes) throw new BodyTooLargeError(maxBytes);
    req.pipe(counter);
    return await consume(counter);
  } finally {
    req.off('close', clientGone);
    req.unpipe(counter);
    counter.destroy();
    if (!req.readableEnded && !req.destroyed) {
      req.resume();
      // Ends with the body, or with the connection when the client gives up.
      await finished(req).catch(() => undefined);
    }
  }
}
