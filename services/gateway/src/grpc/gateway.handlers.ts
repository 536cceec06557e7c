import { gatewayV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ModuleDeps } from '@eligo/runtime';

/** The gateway's own gRPC face: GetInfo, so operators probe it like every other module. */
export function gatewayGrpcService(deps: ModuleDeps): GrpcServiceBinding {
  return bindService(
    gatewayV1.GatewayServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
