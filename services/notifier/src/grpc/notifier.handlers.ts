import { notifierV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';

/** The gRPC face of the notifier service: each handler converts, calls one use case, converts back. */
export function notifierGrpcService({ deps }: ServiceContext): GrpcServiceBinding {
  return bindService(
    notifierV1.NotifierServiceService,
    { getInfo: async () => getInfoResponse(deps) },
    deps.logger,
  );
}
