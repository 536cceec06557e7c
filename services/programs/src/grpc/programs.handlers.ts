import { programsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';

/** The gRPC face of the programs service: each handler converts, calls one use case, converts back. */
export function programsGrpcService({ deps }: ServiceContext): GrpcServiceBinding {
  return bindService(
    programsV1.ProgramsServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
