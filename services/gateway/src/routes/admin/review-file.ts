import type { documentsV1 } from '@eligo/proto';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { REVIEW_FILE_CSP } from '../../endpoints/admin-reviews';

/**
 * Answers GET /reviews/{reviewId}/files/{documentId} (endpoints/admin-reviews.ts, adminGetReviewFile) from
 * one ReadReviewFile stream: the file's description first, then its bytes, each chunk written once the
 * client took the previous one (backpressure reaches the documents service through the stream).
 *
 * The 200 headers go out with the first chunk, so a stream that fails before any byte (an unknown file, an
 * outage) still gets the ordinary JSON error (the rejection goes to the error middleware). Once bytes have
 * been sent, a failure destroys the response: a reviewer must see a broken file, never JSON inside an image.
 */
export async function sendReviewFile(
  res: Response,
  parts: AsyncIterable<documentsV1.ReadReviewFileResponse>,
  logger: Logger,
): Promise<void> {
  let file: documentsV1.ReviewFileInfo | undefined;
  let started = false;
  let sent = 0;
  const start = (info: documentsV1.ReviewFileInfo) => {
    started = true;
    res.status(200).set({
      'Content-Type': info.contentType,
      'Content-Length': String(info.size),
      // Shown in the console, never saved under a name (file names are personal data).
      'Content-Disposition': 'inline',
      // The bytes come from end users: a browser must never take them for another type, nor run them.
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': REVIEW_FILE_CSP,
      // Personal data: no cache, shared or the browser's own, may keep it.
      'Cache-Control': 'private, no-store',
    });
  };
  try {
    for await (const { part } of parts) {
      if (file === undefined) {
        if (part?.$case !== 'file') throw new Error('ReadReviewFile did not start with the file');
        file = part.file;
        continue;
      }
      if (part?.$case !== 'chunk') throw new Error('ReadReviewFile sent a second description');
      sent += part.chunk.length;
      if (sent > file.size) throw new Error('ReadReviewFile sent more bytes than the file has');
      if (!started) start(file);
      // The client went away: leaving the loop cancels the call.
      if (res.destroyed) return;
      if (!res.write(part.chunk)) await drained(res);
    }
  } catch (err) {
    if (!started) throw err;
    // A client that went away aborted the call itself: nothing to report.
    if (!res.destroyed) logger.warn({ err }, 'review file broke off after the headers were sent');
    res.destroy();
    return;
  }
  if (file === undefined) throw new Error('ReadReviewFile ended without the file');
  if (sent !== file.size) {
    // Fewer bytes than Content-Length promised: break off rather than let the client wait for the rest.
    if (!started) throw new Error('ReadReviewFile ended before the file');
    logger.warn({ sent, size: file.size }, 'review file ended short of its size');
    res.destroy();
    return;
  }
  if (!started) start(file);
  res.end();
}

/** Resolves when the response can take more, or when it closed (a client that went away drains nothing). */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
