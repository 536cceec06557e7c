import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { createMetricsRegistry, type MetricsRegistry } from '../metrics/registry';
import { accessLog } from './access';
import { MAX_REQUEST_HEAD_BYTES, onClientError } from './client-errors';

export interface HttpServerOptions {
  logger: Logger;
  /** Liveness: the process is up. Readiness: every module is ready and the process is not draining. */
  ready: () => Promise<boolean>;
  metrics: () => Promise<{ contentType: string; body: string }>;
  /** Where the HTTP RED histogram goes (http/access.ts); without it, a registry of the server's own. */
  registry?: MetricsRegistry;
  /** Mounts module routes (gateway REST, object-store URLs) between the probes and the fallback handlers. */
  mount: (app: Express) => void;
}

export interface HttpServer {
  app: Express;
  listen(host: string, port: number): Promise<number>;
  /**
   * The drain window (before close): requests are still served, but every response asks its client to close
   * the connection, so that kept-alive clients reconnect through the load balancer to another instance.
   */
  drain(): void;
  /** Stops accepting connections, lets in-flight requests finish within graceMs, then closes the rest. */
  close(graceMs: number): Promise<void>;
}

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(accessLog(options.logger, options.registry ?? createMetricsRegistry({ defaultMetrics: false })));
  let draining = false;
  app.use((_req, res, next) => {
    if (draining) res.setHeader('connection', 'close');
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ok = await options.ready().catch(() => false);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'unready' });
  });
  app.get('/metrics', async (_req, res, next) => {
    try {
      const { contentType, body } = await options.metrics();
      res.type(contentType).send(body);
    } catch (err) {
      next(err);
    }
  });
  options.mount(app);
  app.use((_req, res) => {
    res.status(404).json({ systemErrorMessage: 'Not found' });
  });
  // Last resort for errors no module mapped: a generic body, the detail logged once.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    options.logger.error(
      { err, requestId: res.locals.requestId as string | undefined, method: req.method },
      'unhandled http error',
    );
    if (!res.headersSent) res.status(500).json({ systemErrorMessage: 'Internal server error' });
  });

  const server: Server = createServer({ maxHeaderSize: MAX_REQUEST_HEAD_BYTES }, app);
  server.on('clientError', onClientError);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    app,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const addr = server.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      }),
    drain: () => {
      draining = true;
    },
    close: (graceMs) =>
      new Promise((resolve) => {
        if (!server.listening) return resolve();
        const timer = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
