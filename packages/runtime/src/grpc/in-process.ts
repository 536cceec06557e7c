import {
  connectivityState,
  Metadata,
  Server,
  status as Status,
  type ChannelInterface,
  type ChannelOptions,
  type Deadline,
  type ServerInterceptingCallInterface,
  type ServerInterceptor,
  type ServerOptions,
  type StatusObject,
  type experimental,
} from '@grpc/grpc-js';
import { restoreStackTraces } from './caller-stack';

/**
 * The in-process transport (docs/architecture.md, "Modules and targets"): a call from a module to a service
 * hosted by the same process skips HTTP/2 and the loopback socket, and nothing else. The caller keeps its
 * generated client, its interceptors (the internal token), its deadline, retries and breaker; the request and
 * the response are still encoded to protobuf bytes and decoded on the other side (so nothing is shared by
 * reference between modules); the callee's handler runs behind the host's own server interceptors (access
 * log, metrics, internal-token check) with grpc-js's own call objects. What it saves is the framing, the
 * socket writes and reads and the HTTP/2 session work, which profiles of the all-in-one process put at a
 * tenth of its CPU. The split deployment never takes this path: a client whose target is another process
 * opens a socket as before.
 *
 * grpc-js (pinned in package.json) has no in-process channel of its own. This one implements its public
 * `ChannelInterface` (given to the generated client as `channelOverride`) and reads two members of `Server`
 * that its type declarations mark private: the handler map and the function that runs a handler on a call.
 * `inProcessSupported` checks both when the module loads; without them every call goes over the socket.
 */

type Handler = {
  func: unknown;
  serialize: (value: unknown) => Buffer;
  deserialize: (bytes: Buffer) => unknown;
  type: 'unary' | 'clientStream' | 'serverStream' | 'bidi';
  path: string;
};
type CallStream = experimental.CallStream;
type InterceptingListener = Parameters<CallStream['start']>[1];
type ServerListener = Parameters<ServerInterceptingCallInterface['start']>[0];

interface ServerInternals {
  handlers: Map<string, Handler>;
}
type RunHandler = (call: ServerInterceptingCallInterface, handler: Handler) => boolean;
const runHandler = (Server.prototype as unknown as { _runHandlerForCall?: RunHandler })._runHandlerForCall;

/** grpc-js's defaults (constants.ts): 4 MiB received, no limit sent. */
const DEFAULT_MAX_RECEIVE = 4 * 1024 * 1024;
const DEFAULT_MAX_SEND = -1;

/** Whether this grpc-js exposes what the transport needs (checked by a unit test on every upgrade). */
export function inProcessSupported(server: Server): boolean {
  return typeof runHandler === 'function' && (server as unknown as ServerInternals).handlers instanceof Map;
}

/** What the host hands to the channels of its process: its server, its interceptors, and whether it serves. */
export interface InProcessServer {
  readonly server: Server;
  readonly interceptors: readonly ServerInterceptor[];
  readonly options: ServerOptions;
  /** False before the host listens and from the start of its shutdown: calls then take the socket. */
  accepting(): boolean;
  /** Calls in flight, cut by a forced shutdown as grpc-js cuts its streams. */
  readonly active: Set<{ cancelFromServer(): void }>;
}

/**
 * A channel that runs calls to `host`'s methods in this process, and any other call (an unknown method, a
 * host that does not accept calls) through `network`, the socket channel grpc-js would have opened.
 */
export class InProcessChannel implements ChannelInterface {
  private networkChannel: ChannelInterface | undefined;

  constructor(
    private readonly host: InProcessServer,
    private readonly target: string,
    private readonly network: () => ChannelInterface,
    private readonly options: ChannelOptions = {},
  ) {}

  private get fallback(): ChannelInterface {
    return (this.networkChannel ??= this.network());
  }

  createCall(
    method: string,
    deadline: Deadline,
    host: string | null | undefined,
    parentCall: Parameters<ChannelInterface['createCall']>[3],
    propagateFlags: number | null | undefined,
  ): CallStream {
    const handler = this.host.accepting()
      ? (this.host.server as unknown as ServerInternals).handlers.get(method)
      : undefined;
    if (!handler) return this.fallback.createCall(method, deadline, host, parentCall, propagateFlags);
    return new InProcessCall(this.host, handler, deadline, host ?? this.target, this.options);
  }

  close(): void {
    this.networkChannel?.close();
  }

  getTarget(): string {
    return this.target;
  }

  getConnectivityState(tryToConnect: boolean): connectivityState {
    return this.host.accepting() ? connectivityState.READY : this.fallback.getConnectivityState(tryToConnect);
  }

  watchConnectivityState(
    currentState: connectivityState,
    deadline: Date | number,
    callback: (error?: Error) => void,
  ): void {
    this.fallback.watchConnectivityState(currentState, deadline, callback);
  }

  getChannelzRef(): ReturnType<ChannelInterface['getChannelzRef']> {
    return this.fallback.getChannelzRef();
  }
}

let callNumbers = 0;

/**
 * One call: the client half (grpc-js's CallStream, under the generated client's interceptors) and the server
 * half (a ServerInterceptingCallInterface under the host's interceptors) joined by two message queues. A
 * message is handed over only when the other side asked to read (startRead), and its sender's write
 * callback runs only then, so a slow reader holds back its writer as HTTP/2 flow control would.
 */
class InProcessCall implements CallStream {
  private readonly callNumber = ++callNumbers;
  private listener: InterceptingListener | undefined;
  private server: ServerSide | undefined;
  private readonly toClient: { message: Buffer; sent: () => void }[] = [];
  private clientWantsRead = false;
  private headersSent = false;
  private pendingStatus: StatusObject | undefined;
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxReceive: number;

  constructor(
    private readonly host: InProcessServer,
    private readonly handler: Handler,
    private readonly deadline: Deadline,
    private readonly authority: string,
    options: ChannelOptions,
  ) {
    this.maxReceive = limit(options, 'grpc.max_receive_message_length', DEFAULT_MAX_RECEIVE);
  }

  start(metadata: Metadata, listener: InterceptingListener): void {
    // The caller's side is done capturing (caller-stack.ts): the callee's code keeps its stack traces.
    restoreStackTraces();
    this.listener = listener;
    const ms = deadlineMs(this.deadline);
    if (ms <= Date.now()) {
      this.finish({ code: Status.DEADLINE_EXCEEDED, details: 'Deadline exceeded', metadata: new Metadata() });
      return;
    }
    if (ms !== Infinity)
      this.timer = setTimeout(
        () => this.cancelWithStatus(Status.DEADLINE_EXCEEDED, 'Deadline exceeded'),
        Math.min(ms - Date.now(), 2 ** 31 - 1),
      );
    this.server = new ServerSide(this, this.handler, metadata.clone(), ms, this.authority, this.host.options);
    this.host.active.add(this);
    const { path, type, serialize, deserialize } = this.handler;
    const definition = {
      path,
      requestStream: type === 'clientStream' || type === 'bidi',
      responseStream: type === 'serverStream' || type === 'bidi',
      requestDeserialize: deserialize,
      responseSerialize: serialize,
    };
    // As grpc-js's getServerInterceptingCall: the first interceptor of the list wraps the base call first.
    const call = this.host.interceptors.reduce<ServerInterceptingCallInterface>(
      (next, interceptor) => interceptor(definition, next),
      this.server,
    );
    runHandler!(call, this.handler);
  }

  sendMessageWithContext(context: { callback?: (error?: Error | null) => void }, message: Buffer): void {
    if (this.ended || !this.server) return;
    this.server.receive(message, () => context.callback?.());
  }

  halfClose(): void {
    if (!this.ended) this.server?.receiveHalfClose();
  }

  startRead(): void {
    this.clientWantsRead = true;
    this.pushToClient();
  }

  cancelWithStatus(code: Status, details: string): void {
    if (this.ended) return;
    this.finish({ code, details, metadata: new Metadata() });
    this.server?.cancel();
  }

  /** A forced shutdown of the host: the caller sees what grpc-js gives it for a stream the server reset. */
  cancelFromServer(): void {
    this.cancelWithStatus(Status.CANCELLED, 'Call cancelled');
  }

  getPeer(): string {
    return 'in-process';
  }

  getCallNumber(): number {
    return this.callNumber;
  }

  setCredentials(): void {
    // Call credentials add metadata for the network; an in-process call has no transport to secure.
  }

  getAuthContext(): null {
    return null;
  }

  // The server half's events, in the order grpc-js's HTTP/2 call would deliver them.

  sendHeaders(metadata: Metadata): void {
    if (this.ended || this.headersSent) return;
    this.headersSent = true;
    const listener = this.listener!;
    process.nextTick(() => listener.onReceiveMetadata(metadata));
  }

  sendToClient(message: Buffer, sent: () => void): void {
    if (this.ended) return;
    if (this.maxReceive !== -1 && message.length > this.maxReceive) {
      this.cancelWithStatus(
        Status.RESOURCE_EXHAUSTED,
        `Received message larger than max (${message.length} vs. ${this.maxReceive})`,
      );
      return;
    }
    this.sendHeaders(new Metadata());
    this.toClient.push({ message, sent });
    this.pushToClient();
  }

  sendStatus(status: StatusObject): void {
    if (this.ended) return;
    this.sendHeaders(new Metadata());
    this.pendingStatus = status;
    // OK waits for the messages before it to be read. An error ends the call now, as over HTTP/2, after the
    // message the handler sent before it (at most one waits: a write waits for the one before to be read).
    if (status.code !== Status.OK) {
      for (const queued of this.toClient.splice(0)) this.deliver(queued);
      this.finish(status);
      return;
    }
    this.pushToClient();
  }

  private pushToClient(): void {
    if (this.ended) return;
    if (this.clientWantsRead && this.toClient.length > 0) {
      this.clientWantsRead = false;
      this.deliver(this.toClient.shift()!);
      return;
    }
    if (this.pendingStatus && this.toClient.length === 0) this.finish(this.pendingStatus);
  }

  /** One response message to the caller; the handler's write completes once it is taken. */
  private deliver({ message, sent }: { message: Buffer; sent: () => void }): void {
    const listener = this.listener!;
    process.nextTick(() => {
      listener.onReceiveMessage(message);
      sent();
    });
  }

  private finish(status: StatusObject): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.host.active.delete(this);
    const listener = this.listener!;
    process.nextTick(() => listener.onReceiveStatus(status));
  }
}

/** The server half: what grpc-js's BaseServerInterceptingCall is over HTTP/2, over the client half here. */
class ServerSide implements ServerInterceptingCallInterface {
  private listener: ServerListener | undefined;
  private readonly readQueue: ({ message: unknown; read: () => void } | 'halfClose')[] = [];
  private readPending = false;
  private cancelled = false;
  private metadataSent = false;
  private readonly maxReceive: number;
  private readonly maxSend: number;

  constructor(
    private readonly client: InProcessCall,
    private readonly handler: Handler,
    private readonly metadata: Metadata,
    private readonly deadline: number,
    private readonly authority: string,
    options: ServerOptions,
  ) {
    this.maxReceive = limit(options, 'grpc.max_receive_message_length', DEFAULT_MAX_RECEIVE);
    this.maxSend = limit(options, 'grpc.max_send_message_length', DEFAULT_MAX_SEND);
  }

  start(listener: ServerListener): void {
    if (this.cancelled) return;
    this.listener = listener;
    listener.onReceiveMetadata(this.metadata);
  }

  sendMetadata(metadata: Metadata): void {
    if (this.cancelled || this.metadataSent) return;
    this.metadataSent = true;
    this.client.sendHeaders(metadata.clone());
  }

  sendMessage(message: unknown, callback: () => void): void {
    if (this.cancelled) return;
    let bytes: Buffer;
    try {
      bytes = this.handler.serialize(message);
    } catch {
      this.sendStatus({ code: Status.INTERNAL, details: 'Error serializing response' });
      return;
    }
    if (this.maxSend !== -1 && bytes.length > this.maxSend) {
      this.sendStatus({
        code: Status.RESOURCE_EXHAUSTED,
        details: `Sent message larger than max (${bytes.length} vs. ${this.maxSend})`,
      });
      return;
    }
    this.metadataSent = true;
    this.client.sendToClient(bytes, callback);
  }

  sendStatus(status: { code: Status; details: string; metadata?: Metadata | null }): void {
    if (this.cancelled) return;
    this.metadataSent = true;
    this.client.sendStatus({
      code: status.code,
      details: status.details,
      metadata: status.metadata?.clone() ?? new Metadata(),
    });
    // grpc-js ends every call, answered or not, with onCancel once the stream closes.
    this.notifyCancel();
  }

  startRead(): void {
    if (this.cancelled) return;
    this.readPending = true;
    this.pushToServer();
  }

  getPeer(): string {
    return 'in-process';
  }

  getDeadline(): Deadline {
    return this.deadline;
  }

  getHost(): string {
    return this.authority;
  }

  getAuthContext(): ReturnType<ServerInterceptingCallInterface['getAuthContext']> {
    return {};
  }

  getConnectionInfo(): ReturnType<ServerInterceptingCallInterface['getConnectionInfo']> {
    return {};
  }

  getMetricsRecorder(): ReturnType<ServerInterceptingCallInterface['getMetricsRecorder']> {
    // Per-call ORCA metrics are only sent with grpc.server_call_metric_recording, which Eligo does not set.
    return { recordRequestCostMetric() {}, recordUtilizationMetric() {}, recordNamedMetric() {} } as never;
  }

  // The client half's events.

  receive(bytes: Buffer, read: () => void): void {
    if (this.cancelled) return;
    if (this.maxReceive !== -1 && bytes.length > this.maxReceive) {
      this.sendStatus({
        code: Status.RESOURCE_EXHAUSTED,
        details: `Received message larger than max (${bytes.length} vs. ${this.maxReceive})`,
      });
      return;
    }
    let message: unknown;
    try {
      message = this.handler.deserialize(bytes);
    } catch {
      this.sendStatus({ code: Status.INTERNAL, details: 'Error deserializing request' });
      return;
    }
    this.readQueue.push({ message, read });
    this.pushToServer();
  }

  receiveHalfClose(): void {
    if (this.cancelled) return;
    this.readQueue.push('halfClose');
    this.pushToServer();
  }

  cancel(): void {
    this.notifyCancel();
  }

  private pushToServer(): void {
    if (!this.listener || !this.readPending || this.readQueue.length === 0) return;
    this.readPending = false;
    const next = this.readQueue.shift()!;
    const listener = this.listener;
    process.nextTick(() => {
      if (this.cancelled) return;
      if (next === 'halfClose') listener.onReceiveHalfClose();
      else {
        listener.onReceiveMessage(next.message);
        next.read();
      }
    });
  }

  private notifyCancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const listener = this.listener;
    process.nextTick(() => listener?.onCancel());
  }
}

/** A message size limit from channel or server options (-1: none), else grpc-js's default. */
function limit(options: ChannelOptions | ServerOptions, key: string, fallback: number): number {
  return (options[key] as number | undefined) ?? fallback;
}

function deadlineMs(deadline: Deadline): number {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isNaN(ms) ? Infinity : ms;
}

/**
 * The hosts of this process by the addresses modules name them with (ModuleDeps.addressOf gives
 * `127.0.0.1:<port>` for a module of this process): createClient looks its target up here.
 */
const hosts = new Map<string, InProcessServer>();

export function registerInProcessHost(addresses: readonly string[], host: InProcessServer): () => void {
  for (const address of addresses) hosts.set(address, host);
  return () => {
    for (const address of addresses) if (hosts.get(address) === host) hosts.delete(address);
  };
}

/** The host of this process listening at `address`, if any. */
export function inProcessHostAt(address: string): InProcessServer | undefined {
  return hosts.get(address);
}
