import { z } from 'zod';
import { loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the gateway only (ELIGO_GATEWAY_*); shared ones come from the runtime Config. */
const schema = z.object({
  // GET /info asks every module; a slow one must not hold the answer for the whole default deadline.
  ELIGO_GATEWAY_INFO_DEADLINE_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
});

export interface GatewayConfig {
  infoDeadlineMs: number;
}

export function loadGatewayConfig(config: Config): GatewayConfig {
  const env = loadServiceConfig(schema, config.env);
  return { infoDeadlineMs: env.ELIGO_GATEWAY_INFO_DEADLINE_MS };
}
