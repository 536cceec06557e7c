import { z } from 'zod';
import { allowCidrsSetting, loadServiceConfig, type Config } from '@eligo/runtime';

/** Settings of the programs service only (ELIGO_PROGRAMS_*); shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_PROGRAMS_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  // Lifetime of OAuth access tokens: short, because a signed token stays valid until it expires unless the
  // static token it was issued from is revoked (checked on every Authenticate).
  ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  // The notifier's setting, read here too so that the allow-list is one setting: a webhook callback naming
  // a non-public address outside it is refused when configured, as the notifier refuses it at delivery.
  ELIGO_WEBHOOK_ALLOW_CIDRS: allowCidrsSetting,
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type ProgramsConfig = ReturnType<typeof loadProgramsConfig>;

export function loadProgramsConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  return {
    schema: 'programs',
    poolMax: env.ELIGO_PROGRAMS_DB_POOL_MAX ?? config.database.poolMax,
    oauthTokenTtlSeconds: env.ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS,
    webhookAllowCidrs: env.ELIGO_WEBHOOK_ALLOW_CIDRS,
  };
}
