import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { histogram, type MetricsRegistry } from '../metrics/registry';

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** A request id a client or proxy may set: short and plain, so that it is safe in logs and headers. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The route template of a request, for logs and metrics: what the module that answered it names it
 * (`res.locals.route`, e.g. `/rest/v2/verification/{verificationId}` from an endpoint definition), else the
 * Express route that matched, else `unmatched`. Never the path itself: paths carry ids and upload tokens, and
 * one label value per id would make the metric unbounded.
 */
function routeOf(req: Request, res: Response): string {
  const named = res.locals.route as unknown;
  if (typeof named === 'string') return named;
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/**
 * First middleware of every HTTP server: a request id (the client's `X-Request-Id` when it is plain, else a new
 * one), returned in `X-Request-Id` and kept in `res.locals.requestId` for the handlers' logs; when the answer is
 * sent, one access log line (method, route template, status, duration, request id: never the URL, a body or a
 * header value) and the RED histogram `eligo_http_request_duration_seconds{method,route,status}`.
 */
export function accessLog(logger: Logger, registry: MetricsRegistry): RequestHandler {
  const duration = histogram(registry, {
    name: 'eligo_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status: count, errors and duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const given = req.get('x-request-id');
    const requestId = given !== undefined && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req, res);
      const status = String(res.statusCode);
      duration.observe({ method: req.method, route, status }, seconds);
      // Probes and scrapes come every few seconds from every prober: at debug, as the gRPC health calls are.
      const level = PROBES.has(route) ? 'debug' : 'info';
      logger[level](
        { requestId, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1000) },
        'request',
      );
    });
    next();
  };
}
