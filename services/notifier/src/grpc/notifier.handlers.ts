import { notifierV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { listWebhookDeliveries } from '../app/list-deliveries';
import { listMessagePage } from '../app/list-messages';
import { resendWebhookDelivery } from '../app/resend';
import { deliveriesPageToProto, deliveryToProto, messagesPageToProto } from './mapping';

/** The gRPC face of the notifier service: each handler converts, calls one use case, converts back. */
export function notifierGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  return bindService(
    notifierV1.NotifierServiceService,
    {
      getInfo: async () => getInfoResponse(deps),
      listWebhookDeliveries: async (req) => deliveriesPageToProto(await listWebhookDeliveries(app, req)),
      listMessages: async (req) => messagesPageToProto(await listMessagePage(app, req)),
      resendWebhookDelivery: async (req) => ({
        delivery: deliveryToProto(await resendWebhookDelivery(app, req)),
      }),
    },
    deps.logger,
  );
}
