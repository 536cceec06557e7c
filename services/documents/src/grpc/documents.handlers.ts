import { documentsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';

/** The gRPC face of the documents service: each handler converts, calls one use case, converts back. */
export function documentsGrpcService({ deps }: ServiceContext): GrpcServiceBinding {
  return bindService(
    documentsV1.DocumentsServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
