import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { ModuleName } from '../config/schema';
import { isLoopbackHost } from '../grpc/internal-auth';

/**
 * Where this process's gRPC server listens. All-in-one (it hosts every module of the deployment, `registry`)
 * calls only itself, so it keeps gRPC on loopback unless ELIGO_GRPC_BIND_HOST says otherwise; a split process
 * serves others and binds ELIGO_BIND_HOST. An entry point that does not know the deployment's modules (a
 * service's own main) passes no registry: its process is one part of a split deployment.
 */
export function grpcBindHost(
  config: Config,
  targets: readonly ModuleName[],
  registry: readonly ModuleName[] | undefined,
): string {
  if (config.grpc.bindHost) return config.grpc.bindHost;
  const allInOne = registry !== undefined && registry.every((m) => targets.includes(m));
  return allInOne ? '127.0.0.1' : config.grpc.host;
}

/**
 * A gRPC server reachable from other machines must authenticate its callers: without a token it would hand
 * anyone on the network access tokens, webhook secrets and PII, past the gateway's checks. Refuse to start,
 * unless the operator says explicitly that something else (a mesh with mTLS, a network policy) guards it.
 */
export function checkGrpcExposure(config: Config, host: string, log: Logger): void {
  if (config.grpc.internalTokens.length > 0 || isLoopbackHost(host)) return;
  if (!config.grpc.allowInsecure) {
    throw new Error(
      `refusing to serve gRPC on ${host} without call authentication: set ELIGO_INTERNAL_TOKEN (or ` +
        'ELIGO_INTERNAL_TOKEN_FILE) to the same secret in every process, bind ELIGO_GRPC_BIND_HOST to ' +
        'loopback, or set ELIGO_GRPC_INSECURE=true if a mesh or network policy guards the port',
    );
  }
  log.warn(
    { host },
    'gRPC serves a non-loopback address without call authentication (ELIGO_GRPC_INSECURE=true): anyone who reaches the port can call every service',
  );
}
