import type {
  handleClientStreamingCall,
  handleServerStreamingCall,
  handleUnaryCall,
  ServerReadableStream,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { GrpcServiceBinding } from '../module/module';
import { encodeError } from './error-codec';

/** A unary handler as service code writes it: request in, response out, errors thrown. */
export type UnaryHandler<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

/**
 * Adapts async handlers to grpc-js callbacks and is the one place where a thrown error becomes a status
 * (docs/architecture.md, "Errors"). Bound to a logger because unknown errors are logged here, once, with
 * their detail, while the client only ever sees a generic message.
 *
 *   const unary = unaryAdapter(logger);
 *   const impl: programsV1.ProgramsServiceServer = { getInfo: unary(async (req) => ({ ... })) };
 */
export function unaryAdapter(logger: Logger) {
  return function unary<Req, Res>(handler: UnaryHandler<Req, Res>): handleUnaryCall<Req, Res> {
    return (call, callback) => {
      // Promise.resolve().then also turns a synchronous throw into a rejection.
      Promise.resolve()
        .then(() => handler(call.request, call))
        .then(
          (response) => callback(null, response),
          (err: unknown) => {
            const { status, log } = encodeError(err);
            if (log) logger[log]({ err, grpcPath: call.getPath() }, 'grpc handler failed');
            callback(status);
          },
        );
    };
  };
}

/**
 * A server-streaming handler as service code writes it: the messages as an async iterable (an async
 * generator), errors thrown. Writes wait for the transport to drain, so a slow reader slows the producer
 * instead of filling memory; a cancelled call stops the iteration.
 */
export type ServerStreamHandler<Req, Res> = (
  request: Req,
  call: ServerWritableStream<Req, Res>,
) => AsyncIterable<Res>;

export function serverStreamAdapter(logger: Logger) {
  return function serverStream<Req, Res>(
    handler: ServerStreamHandler<Req, Res>,
  ): handleServerStreamingCall<Req, Res> {
    return (call) => {
      let cancelled = false;
      call.on('cancelled', () => {
        cancelled = true;
      });
      const drained = () =>
        new Promise<void>((resolve) => {
          const done = () => {
            call.off('drain', done);
            call.off('cancelled', done);
            resolve();
          };
          call.on('drain', done);
          call.on('cancelled', done);
        });
      void (async () => {
        for await (const message of handler(call.request, call)) {
          if (cancelled) return;
          if (!call.write(message)) await drained();
          if (cancelled) return;
        }
        call.end();
      })().catch((err: unknown) => {
        if (cancelled) return;
        const { status, log } = encodeError(err);
        if (log) logger[log]({ err, grpcPath: call.getPath() }, 'grpc handler failed');
        // grpc-js turns an 'error' event on a server stream into the call's final status.
        call.emit('error', status);
      });
    };
  };
}

/**
 * A client-streaming handler as service code writes it: the request messages as an async iterable, read with
 * backpressure (the next message is taken only once the handler asks for it), one response out, errors thrown.
 * A call the client cancels ends the iteration with an error, so the handler's cleanup runs.
 */
export type ClientStreamHandler<Req, Res> = (
  requests: AsyncIterable<Req>,
  call: ServerReadableStream<Req, Res>,
) => Promise<Res>;

export function clientStreamAdapter(logger: Logger) {
  return function clientStream<Req, Res>(
    handler: ClientStreamHandler<Req, Res>,
  ): handleClientStreamingCall<Req, Res> {
    return (call, callback) => {
      // grpc-js ends the readable side quietly on cancel; the handler must not take that for the end.
      const requests = (async function* () {
        let cancelled = call.cancelled;
        const onCancel = () => {
          cancelled = true;
          call.destroy(new Error('the call was cancelled by the client'));
        };
        call.once('cancelled', onCancel);
        try {
          for await (const message of call as AsyncIterable<Req>) yield message;
          if (cancelled || call.cancelled) throw new Error('the call was cancelled by the client');
        } finally {
          call.off('cancelled', onCancel);
        }
      })();
      Promise.resolve()
        .then(() => handler(requests, call))
        .then(
          (response) => callback(null, response),
          (err: unknown) => {
            if (call.cancelled) return;
            const { status, log } = encodeError(err);
            if (log) logger[log]({ err, grpcPath: call.getPath() }, 'grpc handler failed');
            callback(status);
          },
        );
    };
  };
}

// Inferred from single fields: matching the whole MethodDefinition would fail on its contravariant serializers.
type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Req } ? Req : never;
type ResponseOf<M> = M extends { responseSerialize: (value: infer Res) => Buffer } ? Res : never;

/**
 * The handlers of a whole service, typed from its generated definition: unary methods are async functions;
 * server-streaming methods are async iterables (ServerStreamHandler); client-streaming methods take an async
 * iterable (ClientStreamHandler); bidi-streaming methods (none yet) keep grpc-js's own handler types and are
 * passed through untouched.
 */
export type ServiceHandlers<S extends ServiceDefinition> = {
  [K in keyof S]: S[K] extends { requestStream: false; responseStream: false }
    ? UnaryHandler<RequestOf<S[K]>, ResponseOf<S[K]>>
    : S[K] extends { requestStream: false; responseStream: true }
      ? ServerStreamHandler<RequestOf<S[K]>, ResponseOf<S[K]>>
      : S[K] extends { requestStream: true; responseStream: false }
        ? ClientStreamHandler<RequestOf<S[K]>, ResponseOf<S[K]>>
        : UntypedHandleCall;
};

/**
 * Builds the GrpcServiceBinding a module returns, from the generated definition and async handlers. The name
 * comes from the method paths ("/eligo.programs.v1.ProgramsService/GetInfo"), so it cannot drift from the proto.
 */
export function bindService<S extends ServiceDefinition>(
  definition: S,
  handlers: ServiceHandlers<S>,
  logger: Logger,
): GrpcServiceBinding {
  const unary = unaryAdapter(logger);
  const serverStream = serverStreamAdapter(logger);
  const clientStream = clientStreamAdapter(logger);
  const implementation: UntypedServiceImplementation = {};
  for (const [key, method] of Object.entries(definition)) {
    const handler = (handlers as Record<string, unknown>)[key];
    if (typeof handler !== 'function') throw new Error(`no handler for ${method.path}`);
    implementation[key] = method.requestStream
      ? method.responseStream
        ? (handler as UntypedHandleCall)
        : (clientStream(handler as ClientStreamHandler<unknown, unknown>) as UntypedHandleCall)
      : method.responseStream
        ? (serverStream(handler as ServerStreamHandler<unknown, unknown>) as UntypedHandleCall)
        : (unary(handler as UnaryHandler<unknown, unknown>) as UntypedHandleCall);
  }
  return { name: serviceNameOf(definition), definition, implementation };
}

/** "eligo.programs.v1.ProgramsService" from a definition's method paths. */
export function serviceNameOf(definition: ServiceDefinition): string {
  const method = Object.values(definition)[0];
  const name = method?.path.split('/')[1];
  if (!name) throw new Error('a gRPC service definition without methods has no name');
  return name;
}
