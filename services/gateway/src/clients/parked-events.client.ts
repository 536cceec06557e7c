import { commonV1 } from '@eligo/proto';
import { createClient, type GrpcClientOptions, type ModuleDeps } from '@eligo/runtime';

/** The modules whose consumers can park events (they run event consumers); the admin API's `module`. */
export const parkingModules = ['verification', 'reports', 'notifier'] as const;
/** Consumer names are lowercase words joined by hyphens (`projection`, `send-link`); the document says the same. */
export const CONSUMER_NAME = '^[a-z][a-z0-9-]{0,63}$';

export type ParkingModule = (typeof parkingModules)[number];

export interface ParkedEventsClient {
  list(req: commonV1.ListParkedEventsRequest): Promise<commonV1.ListParkedEventsResponse>;
  get(req: commonV1.GetParkedEventRequest): Promise<commonV1.GetParkedEventResponse>;
  replay(req: commonV1.ReplayParkedEventRequest): Promise<commonV1.ReplayParkedEventResponse>;
  close(): void;
}

/**
 * Every process serves eligo.common.v1.ParkedEventsService for the modules it hosts, so the gateway reaches a
 * module's parked events at that module's address (one channel per module; in all-in-one they coincide).
 */
export function createParkedEventsClient(deps: ModuleDeps, options: GrpcClientOptions): ParkedEventsClient {
  const channels = new Map(
    parkingModules.map((m) => [
      m,
      createClient(commonV1.ParkedEventsServiceClient, () => deps.addressOf(m), options),
    ]),
  );
  const of = (module: string) => {
    const channel = channels.get(module as ParkingModule);
    if (!channel) throw new Error(`no parked events client for ${module}`);
    return channel;
  };
  return {
    list: (req) => of(req.module).unary('listParkedEvents', req),
    get: (req) => of(req.module).unary('getParkedEvent', req),
    replay: (req) => of(req.module).unary('replayParkedEvent', req),
    close: () => channels.forEach((c) => c.close()),
  };
}
