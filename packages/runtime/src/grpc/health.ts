import type { Server } from '@grpc/grpc-js';
import { HealthImplementation, protoPath as healthProtoPath, type ServingStatus } from 'grpc-health-check';

export { healthProtoPath };
export const healthServiceName = 'grpc.health.v1.Health';

/**
 * grpc.health.v1 with one status per hosted service plus the overall "" status, which Kubernetes' native gRPC
 * probes ask for by default. Everything starts NOT_SERVING: a service says SERVING only once its module has
 * started, and the launcher flips it back to NOT_SERVING when it drains, before the listener closes.
 */
export class HealthStatus {
  private readonly impl = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly services = new Set<string>();

  register(serviceName: string): void {
    this.services.add(serviceName);
    this.impl.setStatus(serviceName, 'NOT_SERVING');
  }

  set(serviceName: string, serving: boolean): void {
    if (serviceName !== '' && !this.services.has(serviceName)) {
      throw new Error(`health: ${serviceName} is not hosted here`);
    }
    this.impl.setStatus(serviceName, status(serving));
  }

  /** Every hosted service and the overall status at once. */
  setAll(serving: boolean): void {
    for (const name of ['', ...this.services]) this.impl.setStatus(name, status(serving));
  }

  addToServer(server: Server): void {
    this.impl.addToServer(server);
  }
}

function status(serving: boolean): ServingStatus {
  return serving ? 'SERVING' : 'NOT_SERVING';
}
