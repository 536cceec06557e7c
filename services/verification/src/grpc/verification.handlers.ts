import { verificationV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';

/** The gRPC face of the verification service: each handler converts, calls one use case, converts back. */
export function verificationGrpcService({ deps }: ServiceContext): GrpcServiceBinding {
  return bindService(
    verificationV1.VerificationServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
