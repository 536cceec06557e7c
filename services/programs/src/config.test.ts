import { ConfigError, loadConfig } from '@eligo/runtime';
import { loadProgramsConfig } from './config';

const load = (env: Record<string, string>) => loadProgramsConfig(loadConfig(env));

describe('loadProgramsConfig', () => {
  it('gives OAuth access tokens 900 seconds unless configured', () => {
    expect(load({}).oauthTokenTtlSeconds).toBe(900);
    expect(load({ ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS: '1' }).oauthTokenTtlSeconds).toBe(1);
    expect(load({ ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS: '86400' }).oauthTokenTtlSeconds).toBe(86_400);
  });

  it.each(['0', '86401', '1.5', 'soon'])('refuses a lifetime of %j at boot', (value) => {
    expect(() => load({ ELIGO_PROGRAMS_OAUTH_TOKEN_TTL_SECONDS: value })).toThrow(ConfigError);
  });

  it('reads the allow-list of webhook addresses the notifier reads, and refuses a bad one at boot', () => {
    expect(load({}).webhookAllowCidrs).toEqual([]);
    expect(load({ ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8, ::1/128' }).webhookAllowCidrs).toHaveLength(2);
    expect(() => load({ ELIGO_WEBHOOK_ALLOW_CIDRS: '10.0.0.1' })).toThrow(ConfigError);
  });

  it('uses its own pool size when set, else the shared one', () => {
    expect(load({ ELIGO_PROGRAMS_DB_POOL_MAX: '7' }).poolMax).toBe(7);
    expect(load({ ELIGO_DB_POOL_MAX: '3' }).poolMax).toBe(3);
  });
});
