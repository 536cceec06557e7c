import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import {
  InterceptingCall,
  Metadata,
  ServerInterceptingCall,
  status as Status,
  type Interceptor,
  type ServerInterceptor,
} from '@grpc/grpc-js';

/**
 * Internal calls carry a shared secret in this metadata key (not `authorization`, which a REST caller's token
 * could be confused with in logs and proxies). Kubernetes mounts it from a Secret; every Eligo process of one
 * deployment holds the same list.
 */
export const internalTokenMetadataKey = 'x-eligo-internal-token';

/**
 * Methods a probe or an operator tool must reach without the secret: health (kubelet, load balancers) and
 * reflection (grpcurl list/describe, which reveals only the public .proto files).
 */
const publicServicePrefixes = ['/grpc.health.v1.Health/', '/grpc.reflection.'];

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Refuses every call to an Eligo service that does not carry one of `tokens` with UNAUTHENTICATED, before the
 * request message is even read. Several tokens let a deployment rotate the secret without downtime: accept
 * old and new, roll every process, then drop the old one. Comparison is on SHA-256 digests with
 * timingSafeEqual, so neither the length nor a prefix of a token leaks through timing.
 */
export function internalAuthInterceptor(tokens: readonly string[]): ServerInterceptor {
  const accepted = tokens.map(digest);
  const matches = (presented: unknown): boolean => {
    if (typeof presented !== 'string') return false;
    const d = digest(presented);
    // Every candidate is compared (no early exit), so timing does not tell which one matched.
    return accepted.reduce((ok, a) => timingSafeEqual(a, d) || ok, false);
  };
  return (descriptor, call) => {
    if (publicServicePrefixes.some((p) => descriptor.path.startsWith(p)))
      return new ServerInterceptingCall(call);
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, mdNext) => {
            if (matches(metadata.get(internalTokenMetadataKey)[0])) return mdNext(metadata);
            // Never echo what was presented: the details reach whoever called.
            call.sendStatus({
              code: Status.UNAUTHENTICATED,
              details: `internal calls need the deployment's token in ${internalTokenMetadataKey} (ELIGO_INTERNAL_TOKEN)`,
              metadata: new Metadata(),
            });
          },
        }),
    });
  };
}

/** Adds the deployment's token to every call of a client (the first of the list: the current one). */
export function internalTokenClientInterceptor(token: string): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start: (metadata, listener, next) => {
        metadata.set(internalTokenMetadataKey, token);
        next(metadata, listener);
      },
    });
}

/** Whether listening on `host` reaches only this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1' || h === '::ffff:127.0.0.1';
}
