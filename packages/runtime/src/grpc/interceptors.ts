import { ServerInterceptingCall, status as Status, type ServerInterceptor } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { MetricsRegistry } from '../metrics/registry';
import { moduleOfService, serverMetrics, splitPath } from './metrics';
import { grpcCodeName } from './status-mapping';

const deadlineSlackMs = 100;

export interface CallOutcome {
  service: string;
  method: string;
  code: Status;
  seconds: number;
}

/**
 * Calls `onEnd` exactly once per call with its final code. A call ends either through sendStatus (the handler
 * answered) or through cancellation: when the client's deadline passes or it goes away, grpc-js answers below
 * the interceptors and only onCancel reaches us.
 */
export function outcomeInterceptor(onEnd: (outcome: CallOutcome) => void): ServerInterceptor {
  return (descriptor, call) => {
    const [service, method] = splitPath(descriptor.path);
    const started = process.hrtime.bigint();
    let ended = false;
    const end = (code: Status): void => {
      if (ended) return;
      ended = true;
      onEnd({ service, method, code, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    };
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onCancel: () => {
            // A client whose deadline passes cancels the stream, often just before the server's own copy of
            // the deadline (computed on receipt, so a little later) fires: close to it counts as a timeout.
            const deadline = call.getDeadline();
            const remaining = deadline === Infinity ? Infinity : new Date(deadline).getTime() - Date.now();
            end(remaining <= deadlineSlackMs ? Status.DEADLINE_EXCEEDED : Status.CANCELLED);
          },
        }),
      sendStatus: (status, next) => {
        end(status.code);
        next(status);
      },
    });
  };
}

/** Codes that point at the server (or its dependencies) rather than at the caller. */
const serverSide = new Set<Status>([
  Status.UNKNOWN,
  Status.INTERNAL,
  Status.DATA_LOSS,
  Status.UNIMPLEMENTED,
  Status.UNAVAILABLE,
  Status.DEADLINE_EXCEEDED,
]);

/**
 * One access line per call: method, code, duration. Never payloads or metadata (PII and tokens travel there).
 * Successes log at debug (health probes would drown everything else), caller errors at info, server-side
 * failures at warn; the error detail itself is logged once by the unary adapter.
 */
export function loggingInterceptor(logger: Logger): ServerInterceptor {
  return outcomeInterceptor(({ service, method, code, seconds }) => {
    const level = code === Status.OK ? 'debug' : serverSide.has(code) ? 'warn' : 'info';
    logger[level](
      {
        grpcService: service,
        grpcMethod: method,
        grpcCode: grpcCodeName(code),
        ms: Math.round(seconds * 1000),
      },
      'grpc call',
    );
  });
}

export function metricsInterceptor(registry: MetricsRegistry): ServerInterceptor {
  const metrics = serverMetrics(registry);
  return outcomeInterceptor(({ service, method, code, seconds }) => {
    const labels = {
      module: moduleOfService(service),
      grpc_service: service,
      grpc_method: method,
      grpc_code: grpcCodeName(code),
    };
    metrics.handled.inc(labels);
    metrics.handlingSeconds.observe(labels, seconds);
  });
}
