import { createReadStream } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import { RestError } from '../errors';

/** Idle time after which a store that stopped reading or answering is given up on. */
export const STORE_IDLE_TIMEOUT_MS = 60_000;

/**
 * 502 SEM: the object store did not take a file. The store's own answer stays in the log: its URLs and errors
 * are never shown to clients.
 */
export const storeFailed = (): RestError =>
  new RestError(502, 'The file could not be stored; upload it again');

export class StoreRejectedUpload extends Error {
  constructor(readonly status: number) {
    super(`the object store answered ${status}`);
    this.name = 'StoreRejectedUpload';
  }
}

/**
 * PUTs a file to a presigned object-store URL, streamed from disk with its length and type declared up front
 * (a presigned PUT takes no chunked body). Resolves once the store answered 2xx; rejects on any other answer
 * or a transport failure.
 */
export function putFile(
  url: string,
  path: string,
  size: number,
  contentType: string,
  idleTimeoutMs = STORE_IDLE_TIMEOUT_MS,
): Promise<void> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'PUT',
        headers: { 'Content-Length': String(size), 'Content-Type': contentType },
        timeout: idleTimeoutMs,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        // The store's answer body is of no use to the client; read it so the socket is released.
        res.resume();
        res.on('error', reject);
        res.on('end', () =>
          status >= 200 && status < 300 ? resolve() : reject(new StoreRejectedUpload(status)),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('the object store did not answer in time')));
    req.on('error', reject);
    // 1 MiB reads: a fraction of the system calls of the 64 KiB default, for a bounded buffer per upload.
    pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), req).catch(reject);
  });
}
