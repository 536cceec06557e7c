import { counter, gauge, histogram, type MetricsRegistry } from '../metrics/registry';

/**
 * gRPC metrics, named after go-grpc-prometheus so that existing dashboards and alerts apply. `module` is the
 * serving module on the server side and the calling module on the client side.
 */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const callLabels = ['module', 'grpc_service', 'grpc_method', 'grpc_code'] as const;

export function serverMetrics(registry: MetricsRegistry) {
  return {
    handled: counter(registry, {
      name: 'grpc_server_handled_total',
      help: 'RPCs completed on the server, by status code.',
      labelNames: callLabels,
    }),
    handlingSeconds: histogram(registry, {
      name: 'grpc_server_handling_seconds',
      help: 'Time the server took to complete an RPC.',
      labelNames: callLabels,
      buckets: latencyBuckets,
    }),
  };
}

export function clientMetrics(registry: MetricsRegistry) {
  return {
    handled: counter(registry, {
      name: 'grpc_client_handled_total',
      help: 'RPCs completed by clients (after retries), by status code.',
      labelNames: callLabels,
    }),
    handlingSeconds: histogram(registry, {
      name: 'grpc_client_handling_seconds',
      help: 'Time a client call took, retries and backoff included.',
      labelNames: callLabels,
      buckets: latencyBuckets,
    }),
    retries: counter(registry, {
      name: 'grpc_client_retries_total',
      help: 'Attempts repeated after UNAVAILABLE.',
      labelNames: ['module', 'grpc_service', 'grpc_method'] as const,
    }),
    circuitState: gauge(registry, {
      name: 'grpc_client_circuit_state',
      help: 'Circuit breaker state per client: 0 closed, 1 half-open, 2 open.',
      labelNames: ['module', 'grpc_service'] as const,
    }),
  };
}

/** "programs" for "eligo.programs.v1.ProgramsService" (section 5 fixes the package scheme). */
export function moduleOfService(serviceName: string): string {
  return /^eligo\.([a-z0-9_]+)\.v\d+\./.exec(serviceName)?.[1] ?? 'runtime';
}

/** ["eligo.programs.v1.ProgramsService", "GetInfo"] from "/eligo.programs.v1.ProgramsService/GetInfo". */
export function splitPath(path: string): [service: string, method: string] {
  const [, service = 'unknown', method = 'unknown'] = path.split('/');
  return [service, method];
}
