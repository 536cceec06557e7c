// Imported first by main.ts: OpenTelemetry's instrumentations patch http, express, @grpc/grpc-js and pg as they
// are required, so the SDK must start before anything else loads them (docs/operations.md, "Tracing").
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';

type Env = Record<string, string | undefined>;

/**
 * Off by default: a process traces only when told where to export, by the standard variables
 * (OTEL_TRACES_EXPORTER other than `none`, or an OTLP endpoint), and OTEL_SDK_DISABLED is not true.
 */
export function tracingEnabled(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** `eligo-gateway` for `--target gateway`, `eligo-a+b` for `--target a,b`, `eligo` for all-in-one. */
export function defaultServiceName(argv: readonly string[]): string {
  const i = argv.findIndex((a) => a === '--target' || a === '-t' || a.startsWith('--target='));
  const value = i < 0 ? 'all' : argv[i]!.startsWith('--target=') ? argv[i]!.slice(9) : (argv[i + 1] ?? 'all');
  return /^[a-z]+(,[a-z]+)*$/.test(value) && value !== 'all'
    ? `eligo-${value.split(',').join('+')}`
    : 'eligo';
}

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
const URL_ATTRIBUTES = ['http.url', 'http.target', 'url.full', 'url.path', 'url.query'];

/**
 * Paths carry ids and upload tokens, queries carry search text, webhook URLs may carry a receiver's secret:
 * none of it leaves in a span. A server span keeps the route template (set by the module that answered), a
 * client span the origin it called.
 */
function overwriteUrl(span: Span, value: string): void {
  const present = (span as unknown as { attributes?: Record<string, unknown> }).attributes ?? {};
  for (const name of URL_ATTRIBUTES) if (name in present) span.setAttribute(name, value);
}

function isIncoming(request: ClientRequest | IncomingMessage): request is IncomingMessage {
  return 'httpVersion' in request && typeof request.httpVersion === 'string';
}

function httpInstrumentation(): HttpInstrumentation {
  return new HttpInstrumentation({
    ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]!),
    requestHook: (span, request) => {
      if (isIncoming(request)) return overwriteUrl(span, '[not recorded]');
      const host = request.host ?? request.getHeader('host');
      overwriteUrl(span, `${request.protocol}//${String(host)}`);
    },
    // The runtime's access middleware names the answer: res.locals.route (a route template) and requestId.
    applyCustomAttributesOnSpan: (span, request, response) => {
      const locals = (response as ServerResponse & { locals?: Record<string, unknown> }).locals;
      if (!locals || !isIncoming(request as IncomingMessage)) return;
      if (typeof locals.requestId === 'string') span.setAttribute('eligo.request_id', locals.requestId);
      if (typeof locals.route === 'string') {
        span.setAttribute('http.route', locals.route);
        overwriteUrl(span, locals.route);
        span.updateName(`${(request as IncomingMessage).method ?? 'GET'} ${locals.route}`);
      }
    },
  });
}

/** Starts tracing when the environment asks for it; the returned function flushes and stops it. */
export function startTracing(env: Env, argv: readonly string[]): (() => Promise<void>) | undefined {
  if (!tracingEnabled(env)) return undefined;
  // Eligo's metrics are Prometheus (/metrics) and its logs JSON on stdout: the SDK exports traces only,
  // unless an operator asks for its metrics or logs too.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  process.env.OTEL_SERVICE_NAME ??= defaultServiceName(argv);
  const sdk = new NodeSDK({
    instrumentations: [
      httpInstrumentation(),
      // The route handler only: a span per middleware and per router tried is a dozen per request.
      new ExpressInstrumentation({
        ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER],
      }),
      // Probes call grpc.health.v1.Health every few seconds.
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      // Statements without a traced caller are background polls (outbox relay, work loops): not traced.
      // Statement text only, never bound values (they hold personal data).
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
