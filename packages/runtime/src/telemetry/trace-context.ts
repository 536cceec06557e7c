import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * Trace context across the hops no instrumentation sees (docs/operations.md, "Tracing"): an event's outbox row,
 * the bus (CloudEvents distributed tracing extension: `ce_traceparent`, `ce_tracestate`), a consumer, and work
 * stored for later (a webhook delivery). Only the OpenTelemetry API is used here: without a started SDK
 * (tracing off, the default) every call is a no-op and nothing is added to an event.
 */
const tracer = trace.getTracer('eligo');

const CE_TRACE_HEADERS = { traceparent: 'ce_traceparent', tracestate: 'ce_tracestate' } as const;

function injected(ctx: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The CloudEvents trace headers of the active span, to be stored with an event; empty when not tracing. */
export function eventTraceHeaders(): Record<string, string> {
  const carrier = injected(context.active());
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(CE_TRACE_HEADERS)) {
    const value = carrier[name];
    if (value) headers[header] = value;
  }
  return headers;
}

/** The context an event's trace headers name (the span that recorded it), or none. */
function eventParent(headers: Readonly<Record<string, string | undefined>>): Context {
  const carrier: Record<string, string> = {};
  for (const [name, header] of Object.entries(CE_TRACE_HEADERS)) {
    const value = headers[header];
    if (value) carrier[name] = value;
  }
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** The W3C `traceparent` of the active span, to be stored with work done later; null when not tracing. */
export function currentTraceParent(): string | null {
  return injected(context.active()).traceparent ?? null;
}

async function inSpan<T>(
  name: string,
  parent: Context,
  options: { kind: SpanKind; attributes: Attributes },
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, options, parent, async (span: Span) => {
    try {
      return await work();
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

export interface ConsumedEvent {
  topic: string;
  partition: number;
  offset: string;
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs a consumer's handling of one event in a CONSUMER span whose parent is the span that recorded the event,
 * so the trace of a request continues through every consumer of what it changed.
 */
export function inEventSpan<T>(consumer: string, message: ConsumedEvent, work: () => Promise<T>): Promise<T> {
  const type = message.headers.ce_type ?? 'unknown';
  return inSpan(
    `process ${type}`,
    eventParent(message.headers),
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.operation.type': 'process',
        'messaging.destination.name': message.topic,
        'messaging.destination.partition.id': String(message.partition),
        'messaging.consumer.group.name': consumer,
        'messaging.message.id': message.headers.ce_id ?? '',
        'messaging.kafka.offset': Number(message.offset),
        'cloudevents.event_type': type,
      },
    },
    work,
  );
}

/**
 * Runs work stored earlier (e.g. a webhook attempt) in an INTERNAL span whose parent is the stored
 * `traceparent` (currentTraceParent), or a new trace when none was stored.
 */
export function inStoredTraceSpan<T>(
  name: string,
  traceParent: string | null,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  const parent = traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : ROOT_CONTEXT;
  return inSpan(name, parent, { kind: SpanKind.INTERNAL, attributes }, work);
}

/** Trace and span id of the active span for a log line, or nothing when not tracing. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const spanContext = trace.getSpanContext(context.active());
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}

/** Attributes on the active span (e.g. the request id of an HTTP request); no-op when not tracing. */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** The active span, for a hook that must finish it off before it ends (the HTTP route template). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}
