import { Server, ServerCredentials, type ServerInterceptor, type ServerOptions } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { MetricsRegistry } from '../metrics/registry';
import type { GrpcServiceBinding } from '../module/module';
import { HealthStatus } from './health';
import { internalAuthInterceptor } from './internal-auth';
import { loggingInterceptor, metricsInterceptor } from './interceptors';
import { addReflection } from './reflection';
import { inProcessSupported, registerInProcessHost, type InProcessServer } from './in-process';

export interface GrpcHostOptions {
  logger: Logger;
  /** Where grpc_server_* metrics go; omitted, the server records none. */
  metrics?: MetricsRegistry;
  /** Server reflection (on by default: section 5 says every server registers it). */
  reflection?: boolean;
  /** Message size limits, keepalive and the like. Interceptors are the host's own. */
  serverOptions?: Omit<ServerOptions, 'interceptors'>;
  /** Plaintext by default: inside the cluster, TLS is the mesh's job. */
  credentials?: ServerCredentials;
  /** Tokens accepted from internal callers (internal-auth.ts); empty or absent, calls are not checked. */
  internalTokens?: readonly string[];
  /**
   * Serve clients of this process in process (grpc/in-process.ts) once listening: default true. The split
   * deployment is unaffected either way (its clients are in other processes).
   */
  inProcess?: boolean;
}

/**
 * One grpc-js server for every module a process hosts (docs/architecture.md, "Modules and targets"), with
 * grpc.health.v1 and reflection. Services are added first, then the host listens; the launcher flips health
 * to SERVING once the modules have started and back to NOT_SERVING when it drains.
 */
export class GrpcHost {
  private readonly server: Server;
  private readonly health = new HealthStatus();
  private readonly services = new Map<string, GrpcServiceBinding>();
  private readonly log: Logger;
  private boundPort: number | undefined;
  private readonly inProcess: InProcessServer & { open: boolean };
  private unregister: (() => void) | undefined;

  constructor(private readonly options: GrpcHostOptions) {
    this.log = options.logger;
    const interceptors: ServerInterceptor[] = [loggingInterceptor(options.logger)];
    if (options.metrics) interceptors.push(metricsInterceptor(options.metrics));
    // Last, so that the access log and metrics above also count the calls it refuses.
    if (options.internalTokens?.length) interceptors.push(internalAuthInterceptor(options.internalTokens));
    this.server = new Server({ ...options.serverOptions, interceptors });
    // The same interceptors, in the same order, run on the calls this process makes to itself.
    this.inProcess = {
      server: this.server,
      interceptors,
      options: options.serverOptions ?? {},
      open: false,
      accepting: () => this.inProcess.open,
      active: new Set(),
    };
  }

  addService(binding: GrpcServiceBinding): void {
    if (this.boundPort !== undefined)
      throw new Error(`cannot add ${binding.name}: the gRPC host already listens`);
    if (this.services.has(binding.name)) throw new Error(`gRPC service ${binding.name} is registered twice`);
    this.server.addService(binding.definition, binding.implementation);
    this.services.set(binding.name, binding);
    this.health.register(binding.name);
  }

  /** Binds host:port (port 0 picks a free one) and resolves with the bound port. */
  async listen(host: string, port: number): Promise<number> {
    if (this.boundPort !== undefined) throw new Error('the gRPC host already listens');
    this.health.addToServer(this.server);
    if (this.options.reflection !== false) addReflection(this.server, [...this.services.keys()]);
    const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const credentials = this.options.credentials ?? ServerCredentials.createInsecure();
    this.boundPort = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(address, credentials, (err, bound) => (err ? reject(err) : resolve(bound))),
    );
    const inProcess = this.options.inProcess !== false && inProcessSupported(this.server);
    if (inProcess) {
      const port = this.boundPort;
      this.unregister = registerInProcessHost(
        [`127.0.0.1:${port}`, `localhost:${port}`, `${host}:${port}`],
        this.inProcess,
      );
      this.inProcess.open = true;
    }
    this.log.info(
      { address: `${host}:${this.boundPort}`, services: [...this.services.keys()], inProcess },
      'grpc listening',
    );
    return this.boundPort;
  }

  get port(): number | undefined {
    return this.boundPort;
  }

  get serviceNames(): string[] {
    return [...this.services.keys()];
  }

  /** Health of one hosted service, or of the whole server with "". */
  setServing(serviceName: string, serving: boolean): void {
    this.health.set(serviceName, serving);
  }

  setAllServing(serving: boolean): void {
    this.health.setAll(serving);
  }

  /**
   * Drain: report NOT_SERVING, let in-flight calls finish for up to graceMs, then cut the rest (health Watch
   * streams and hung calls would otherwise hold the process forever).
   */
  async shutdown(graceMs: number): Promise<void> {
    this.health.setAll(false);
    this.closeInProcess(false);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn({ graceMs }, 'grpc drain timed out; cancelling remaining calls');
        this.closeInProcess(true);
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        void this.inProcessDrained().then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    });
  }

  /** Resolves once no in-process call is in flight (they have no socket for tryShutdown to wait on). */
  private async inProcessDrained(): Promise<void> {
    while (this.inProcess.active.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Immediate stop, for failures and tests. */
  forceShutdown(): void {
    this.health.setAll(false);
    this.closeInProcess(true);
    this.server.forceShutdown();
  }

  /**
   * New in-process calls take the socket from now on, which a server shutting down refuses as it refuses
   * any new call; calls in flight finish, or are cut with `cut` as grpc-js cuts its open streams.
   */
  private closeInProcess(cut: boolean): void {
    this.inProcess.open = false;
    this.unregister?.();
    if (cut) for (const call of [...this.inProcess.active]) call.cancelFromServer();
  }
}
