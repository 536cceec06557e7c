import { organizationsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';

/** The gRPC face of the organizations service: each handler converts, calls one use case, converts back. */
export function organizationsGrpcService({ deps }: ServiceContext): GrpcServiceBinding {
  return bindService(
    organizationsV1.OrganizationsServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
