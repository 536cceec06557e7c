import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { RestError } from '../errors';

/** Idle time after which a store that stopped reading or answering is given up on. */
export const STORE_IDLE_TIMEOUT_MS = 60_000;

/**
 * 502 SEM: the object store did not take a file. The store's own answer stays in the log: its URLs and errors
 * are never shown to clients.
 */
export const storeFailed = (): RestError =>
  new RestError(502, 'The file could not be stored; upload it again');

/** What the object store made of a proxied body: its status, or why it never answered. */
export type ProxyOutcome = { status: number } | { error: Error };

export interface UploadProxy {
  /**
   * Streams the request body to a presigned PUT URL with only the headers the store needs, and resolves
   * with the store's status (its body is drained, never shown) or the failure. The caller answers the client.
   */
  send(
    req: Request,
    res: Response,
    putUrl: string,
    contentType: string,
    length: number,
  ): Promise<ProxyOutcome>;
}

interface Job {
  target: URL;
  settle: (outcome: ProxyOutcome) => void;
}

/**
 * One http-proxy-middleware instance for every upload; each request's target comes from the documents
 * service (BeginFileUpload), so `router` and `pathRewrite` look it up per request. selfHandleResponse: the
 * store's answer is for the gateway, which calls FinishFileUpload before it answers the client.
 */
export function createUploadProxy(idleTimeoutMs = STORE_IDLE_TIMEOUT_MS): UploadProxy {
  const jobs = new WeakMap<IncomingMessage, Job>();
  const jobOf = (req: IncomingMessage): Job => {
    const job = jobs.get(req);
    if (!job) throw new Error('upload proxy called without a target');
    return job;
  };
  const proxy = createProxyMiddleware<Request, Response>({
    changeOrigin: true,
    selfHandleResponse: true,
    proxyTimeout: idleTimeoutMs,
    router: (req) => jobOf(req).target.origin,
    pathRewrite: (_path, req) => {
      const { pathname, search } = jobOf(req).target;
      return `${pathname}${search}`;
    },
    on: {
      proxyRes: (proxyRes, req) => {
        proxyRes.resume();
        jobs.get(req)?.settle({ status: proxyRes.statusCode ?? 0 });
      },
      // Also the client going away mid-body (http-proxy reports it as econnreset).
      error: (err, req) => jobs.get(req)?.settle({ error: err }),
      econnreset: (err, req) => jobs.get(req)?.settle({ error: err }),
    },
  });

  return {
    send: (req, res, putUrl, contentType, length) =>
      new Promise<ProxyOutcome>((resolve) => {
        let settled = false;
        const settle = (outcome: ProxyOutcome) => {
          if (settled) return;
          settled = true;
          jobs.delete(req);
          resolve(outcome);
        };
        jobs.set(req, { target: new URL(putUrl), settle });
        // Nothing of the client's request but the body goes on: its own headers (x-amz-*, cookies,
        // Authorization, Expect) must not reach the store, and the type is the one the service declared.
        req.headers = { 'content-length': String(length), 'content-type': contentType };
        void proxy(req, res, (err?: unknown) =>
          settle({ error: err instanceof Error ? err : new Error('the upload proxy did not run') }),
        );
      }),
  };
}
