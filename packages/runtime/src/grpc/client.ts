import { setTimeout as sleep } from 'node:timers/promises';
import {
  Channel,
  credentials as grpcCredentials,
  Metadata,
  status as Status,
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  type ClientOptions,
  type MethodDefinition,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { MetricsRegistry } from '../metrics/registry';
import { CallBreaker, type BreakerOptions, type BreakerState } from './breaker';
import { GrpcCallError, isServiceError } from './error-codec';
import { namedCall, withoutCallerStack } from './caller-stack';
import { InProcessChannel, inProcessHostAt } from './in-process';
import { internalTokenClientInterceptor } from './internal-auth';
import { clientMetrics } from './metrics';
import { defaultRetryPolicy, isRetryable, retryBackoff, type RetryPolicy } from './retry';
import { backoffDelay } from '../util/backoff';
import { grpcCodeName } from './status-mapping';

/** What ts-proto generates with outputServices=grpc-js, e.g. programsV1.ProgramsServiceClient. */
export interface GeneratedClientConstructor<S extends ServiceDefinition> {
  new (address: string, credentials: ChannelCredentials, options?: Partial<ClientOptions>): Client;
  service: S;
  serviceName: string;
}

type UnaryMethods<S> = {
  [K in keyof S]: S[K] extends { requestStream: false; responseStream: false } ? K : never;
}[keyof S] &
  string;
type ServerStreamMethods<S> = {
  [K in keyof S]: S[K] extends { requestStream: false; responseStream: true } ? K : never;
}[keyof S] &
  string;
type ClientStreamMethods<S> = {
  [K in keyof S]: S[K] extends { requestStream: true; responseStream: false } ? K : never;
}[keyof S] &
  string;
// Inferred from single fields: matching the whole MethodDefinition would fail on its contravariant serializers.
export type RequestOf<S, K extends keyof S> = S[K] extends { requestSerialize: (value: infer Req) => Buffer }
  ? Req
  : never;
export type ResponseOf<S, K extends keyof S> = S[K] extends {
  responseDeserialize: (bytes: Buffer) => infer Res;
}
  ? Res
  : never;

export interface GrpcClientOptions {
  /** Deadline of every call unless the call sets its own (section 12: no call without one). Default 5000. */
  deadlineMs?: number;
  retry?: Partial<RetryPolicy>;
  /** false turns the breaker off (tests of raw behaviour); otherwise overrides of the defaults. */
  breaker?: Partial<BreakerOptions> | false;
  credentials?: ChannelCredentials;
  channelOptions?: ChannelOptions;
  /** The deployment's internal-call token (ModuleDeps.internalToken), sent on every call when set. */
  internalToken?: string;
  /** grpc_client_* metrics, labelled with `module` (the caller). */
  metrics?: MetricsRegistry;
  /** The calling module, for metric labels and logs. */
  module?: string;
  /** Breaker transitions are logged here. */
  logger?: Logger;
}

export interface UnaryCallOptions {
  /** Overrides the client's default deadline for this call (retries and backoff included). */
  deadlineMs?: number;
  /**
   * An absolute deadline the call must not outlive, e.g. the inbound call's `call.getDeadline()`, so that a
   * chain of calls fits the caller's budget.
   */
  deadline?: Date | number;
  metadata?: Metadata | Record<string, string>;
  signal?: AbortSignal;
}

export interface GrpcClient<S extends ServiceDefinition> {
  readonly serviceName: string;
  /** The target; resolved on the first call when the client was given a function. */
  readonly address: string;
  /** Calls a unary RPC by its method name (lowerCamel, as in the generated client): types follow the name. */
  unary<K extends UnaryMethods<S>>(
    method: K,
    request: RequestOf<S, K>,
    options?: UnaryCallOptions,
  ): Promise<ResponseOf<S, K>>;
  /**
   * Calls a server-streaming RPC: the messages as an async iterable, read with backpressure. The deadline
   * covers the whole stream (pass one sized for it); there are no retries, since a stream that failed half-way
   * cannot be resumed by the transport. Breaking off the loop cancels the call.
   */
  serverStream<K extends ServerStreamMethods<S>>(
    method: K,
    request: RequestOf<S, K>,
    options?: UnaryCallOptions,
  ): AsyncIterable<ResponseOf<S, K>>;
  /**
   * Calls a client-streaming RPC: the requests are taken from the iterable one at a time, each only once the
   * transport took the previous one (backpressure), and the single response is returned. Like serverStream:
   * the deadline covers the whole call, no retries; a failure of the iterable cancels the call and is thrown.
   */
  clientStream<K extends ClientStreamMethods<S>>(
    method: K,
    requests: AsyncIterable<RequestOf<S, K>>,
    options?: UnaryCallOptions,
  ): Promise<ResponseOf<S, K>>;
  breakerState(): BreakerState;
  close(): void;
}

/**
 * A reconnect backoff far below grpc-js's (1 s doubling to 120 s): inside a cluster a restarted peer is back
 * within seconds, and while a channel sits in backoff every call fails at once with UNAVAILABLE.
 */
const defaultChannelOptions: ChannelOptions = {
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2000,
};

/**
 * A promise-based, typed client for one target service, built once and shared (section 4): every call has a
 * deadline, UNAVAILABLE is retried within that deadline, and a circuit breaker fails fast when the target
 * keeps failing.
 *
 *   const programs = createClient(programsV1.ProgramsServiceClient, deps.addressOf('programs'), { deadlineMs });
 *   const { buildInfo } = await programs.unary('getInfo', {});
 *
 * The address may be a function: the channel is then opened on the first call. A module built before its
 * own process listens (port 0 in tests) can so name "this process" before the port is known.
 */
export function createClient<S extends ServiceDefinition>(
  ctor: GeneratedClientConstructor<S>,
  address: string | (() => string),
  options: GrpcClientOptions = {},
): GrpcClient<S> {
  return new UnaryClient(ctor, address, options);
}

class UnaryClient<S extends ServiceDefinition> implements GrpcClient<S> {
  readonly serviceName: string;
  private channel: Client | undefined;
  private readonly open: () => Client;
  private readonly definition: S;
  private readonly deadlineMs: number;
  private readonly retry: RetryPolicy;
  private readonly breaker: CallBreaker;
  private readonly metrics: ReturnType<typeof clientMetrics> | undefined;
  private readonly module: string;

  constructor(
    ctor: GeneratedClientConstructor<S>,
    private readonly target: string | (() => string),
    options: GrpcClientOptions,
  ) {
    this.serviceName = ctor.serviceName;
    this.definition = ctor.service;
    this.deadlineMs = options.deadlineMs ?? 5000;
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.module = options.module ?? 'unknown';
    this.metrics = options.metrics ? clientMetrics(options.metrics) : undefined;
    this.open = () => {
      const address = this.address;
      const credentials = options.credentials ?? grpcCredentials.createInsecure();
      const channelOptions = { ...defaultChannelOptions, ...options.channelOptions };
      // A target hosted by this very process is called in process (grpc/in-process.ts), through the same
      // generated client and interceptors; the socket channel stays the fallback for anything it does not serve.
      const host = inProcessHostAt(address);
      const channelOverride = host
        ? new InProcessChannel(
            host,
            address,
            () => new Channel(address, credentials, channelOptions),
            channelOptions,
          )
        : undefined;
      return new ctor(address, credentials, {
        ...channelOptions,
        ...(channelOverride ? { channelOverride } : {}),
        ...(options.internalToken
          ? { interceptors: [internalTokenClientInterceptor(options.internalToken)] }
          : {}),
      });
    };
    if (typeof target === 'string') this.channel = this.open();
    const stateLabels = { module: this.module, grpc_service: this.serviceName };
    this.metrics?.circuitState.set(stateLabels, 0);
    this.breaker = new CallBreaker(this.serviceName, options.breaker ?? {}, (state) => {
      options.logger?.[state === 'open' ? 'warn' : 'info'](
        { grpcService: this.serviceName, state },
        'circuit breaker',
      );
      this.metrics?.circuitState.set(stateLabels, state === 'open' ? 2 : state === 'halfOpen' ? 1 : 0);
    });
  }

  async unary<K extends UnaryMethods<S>>(
    method: K,
    request: RequestOf<S, K>,
    options: UnaryCallOptions = {},
  ): Promise<ResponseOf<S, K>> {
    const definition = this.definition[method];
    if (!definition || definition.requestStream || definition.responseStream) {
      throw new Error(`${this.serviceName} has no unary method ${method}`);
    }
    const deadline = Math.min(
      Date.now() + (options.deadlineMs ?? this.deadlineMs),
      toEpochMs(options.deadline),
    );
    const metadata = toMetadata(options.metadata);
    const grpcMethod = definition.path.split('/')[2] ?? method;
    const started = process.hrtime.bigint();
    let code: Status = Status.OK;
    try {
      return await this.breaker.run((probe) =>
        this.withRetries(grpcMethod, deadline, options.signal, () =>
          this.attempt<RequestOf<S, K>, ResponseOf<S, K>>(
            definition,
            request,
            metadata,
            deadline,
            options.signal,
            probe,
          ),
        ),
      );
    } catch (err) {
      code = isServiceError(err) ? err.code : Status.UNKNOWN;
      throw err;
    } finally {
      const labels = {
        module: this.module,
        grpc_service: this.serviceName,
        grpc_method: grpcMethod,
        grpc_code: grpcCodeName(code),
      };
      this.metrics?.handled.inc(labels);
      this.metrics?.handlingSeconds.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  serverStream<K extends ServerStreamMethods<S>>(
    method: K,
    request: RequestOf<S, K>,
    options: UnaryCallOptions = {},
  ): AsyncIterable<ResponseOf<S, K>> {
    const definition = this.definition[method];
    if (!definition || definition.requestStream || !definition.responseStream) {
      throw new Error(`${this.serviceName} has no server-streaming method ${method}`);
    }
    const deadline = Math.min(
      Date.now() + (options.deadlineMs ?? this.deadlineMs),
      toEpochMs(options.deadline),
    );
    const grpcMethod = definition.path.split('/')[2] ?? method;
    const labels = { module: this.module, grpc_service: this.serviceName, grpc_method: grpcMethod };
    const metrics = this.metrics;
    const open = () => (this.channel ??= this.open());
    const metadata = toMetadata(options.metadata);
    const signal = options.signal;
    return {
      async *[Symbol.asyncIterator]() {
        if (signal?.aborted) throw new GrpcCallError(Status.CANCELLED, 'call aborted by the caller');
        const started = process.hrtime.bigint();
        const call = open().makeServerStreamRequest<RequestOf<S, K>, ResponseOf<S, K>>(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          request,
          metadata.clone(),
          { deadline },
        );
        const cancel = (): void => call.cancel();
        signal?.addEventListener('abort', cancel, { once: true });
        let code: Status = Status.OK;
        let done = false;
        try {
          for await (const message of call) yield message as ResponseOf<S, K>;
          done = true;
        } catch (err) {
          code = isServiceError(err) ? err.code : Status.UNKNOWN;
          throw err;
        } finally {
          signal?.removeEventListener('abort', cancel);
          // The consumer broke off the loop: the server is told to stop producing.
          if (!done && code === Status.OK) {
            call.cancel();
            code = Status.CANCELLED;
          }
          const final = { ...labels, grpc_code: grpcCodeName(code) };
          metrics?.handled.inc(final);
          metrics?.handlingSeconds.observe(final, Number(process.hrtime.bigint() - started) / 1e9);
        }
      },
    };
  }

  async clientStream<K extends ClientStreamMethods<S>>(
    method: K,
    requests: AsyncIterable<RequestOf<S, K>>,
    options: UnaryCallOptions = {},
  ): Promise<ResponseOf<S, K>> {
    const definition = this.definition[method];
    if (!definition || !definition.requestStream || definition.responseStream) {
      throw new Error(`${this.serviceName} has no client-streaming method ${method}`);
    }
    const deadline = Math.min(
      Date.now() + (options.deadlineMs ?? this.deadlineMs),
      toEpochMs(options.deadline),
    );
    const grpcMethod = definition.path.split('/')[2] ?? method;
    const signal = options.signal;
    if (signal?.aborted) throw new GrpcCallError(Status.CANCELLED, 'call aborted by the caller');
    this.channel ??= this.open();
    const started = process.hrtime.bigint();
    let code: Status = Status.OK;
    let call: { cancel(): void } | undefined;
    const cancel = (): void => call?.cancel();
    try {
      return await new Promise<ResponseOf<S, K>>((resolve, reject) => {
        const writer = this.channel!.makeClientStreamRequest<RequestOf<S, K>, ResponseOf<S, K>>(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          toMetadata(options.metadata).clone(),
          { deadline },
          (err: ServiceError | null, response?: ResponseOf<S, K>) => {
            if (err) reject(err);
            else resolve(response as ResponseOf<S, K>);
          },
        );
        call = writer;
        signal?.addEventListener('abort', cancel, { once: true });
        let ended = false;
        // The call's status is final once the callback ran: writes after it (server failed early) are moot.
        writer.once('status', () => {
          ended = true;
        });
        void (async () => {
          for await (const request of requests) {
            if (ended) return;
            if (!writer.write(request))
              await new Promise<void>((done) => {
                const go = () => {
                  writer.off('drain', go);
                  writer.off('status', go);
                  done();
                };
                writer.on('drain', go);
                writer.on('status', go);
              });
          }
          if (!ended) writer.end();
        })().catch((err: unknown) => {
          reject(err);
          writer.cancel();
        });
      });
    } catch (err) {
      code = isServiceError(err) ? err.code : Status.UNKNOWN;
      throw err;
    } finally {
      signal?.removeEventListener('abort', cancel);
      const labels = {
        module: this.module,
        grpc_service: this.serviceName,
        grpc_method: grpcMethod,
        grpc_code: grpcCodeName(code),
      };
      this.metrics?.handled.inc(labels);
      this.metrics?.handlingSeconds.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /** Retries stay inside the call's deadline: a retry that could not finish in time is not started. */
  private async withRetries<T>(
    grpcMethod: string,
    deadline: number,
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
  ): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (n >= this.retry.maxAttempts || !isRetryable(err) || signal?.aborted) throw err;
        const delay = backoffDelay(n, retryBackoff(this.retry));
        if (Date.now() + delay >= deadline) throw err;
        await sleep(delay, undefined, signal ? { signal } : undefined).catch(() => {
          throw new GrpcCallError(Status.CANCELLED, 'call aborted by the caller');
        });
        this.metrics?.retries.inc({
          module: this.module,
          grpc_service: this.serviceName,
          grpc_method: grpcMethod,
        });
      }
    }
  }

  private attempt<Req, Res>(
    definition: MethodDefinition<Req, Res>,
    request: Req,
    metadata: Metadata,
    deadline: number,
    signal: AbortSignal | undefined,
    /** The breaker's half-open probe waits for a reconnecting channel (breaker.ts run()). */
    waitForReady = false,
  ): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      if (signal?.aborted) return reject(new GrpcCallError(Status.CANCELLED, 'call aborted by the caller'));
      this.channel ??= this.open();
      const channel = this.channel;
      const call = withoutCallerStack(() =>
        channel.makeUnaryRequest<Req, Res>(
          definition.path,
          definition.requestSerialize,
          definition.responseDeserialize,
          request,
          // grpc-js may add to the metadata it is given; each attempt gets its own copy.
          withWaitForReady(metadata.clone(), waitForReady),
          { deadline },
          (err: ServiceError | null, response?: Res) => {
            signal?.removeEventListener('abort', cancel);
            if (err) reject(namedCall(err, definition.path));
            else resolve(response as Res);
          },
        ),
      );
      const cancel = (): void => call.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  get address(): string {
    return typeof this.target === 'string' ? this.target : this.target();
  }

  breakerState(): BreakerState {
    return this.breaker.state;
  }

  close(): void {
    this.breaker.shutdown();
    this.channel?.close();
  }
}

/** grpc-js deadlines are Dates or epoch ms, and Infinity when the inbound call has none. */
function toEpochMs(deadline: Date | number | undefined): number {
  const ms = deadline instanceof Date ? deadline.getTime() : (deadline ?? Infinity);
  return Number.isNaN(ms) ? Infinity : ms;
}

/** grpc-js reads wait-for-ready from the metadata's options, not from the call options. */
function withWaitForReady(metadata: Metadata, waitForReady: boolean): Metadata {
  if (waitForReady) metadata.setOptions({ ...metadata.getOptions(), waitForReady: true });
  return metadata;
}

function toMetadata(input: UnaryCallOptions['metadata']): Metadata {
  if (input instanceof Metadata) return input;
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(input ?? {})) metadata.set(key, value);
  return metadata;
}
