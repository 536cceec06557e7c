import { reportsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';

/** The gRPC face of the reports service: each handler converts, calls one use case, converts back. */
export function reportsGrpcService({ deps }: ServiceContext): GrpcServiceBinding {
  return bindService(
    reportsV1.ReportsServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
