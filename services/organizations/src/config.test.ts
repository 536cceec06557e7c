import { ConfigError, loadConfig } from '@eligo/runtime';
import { loadOrganizationsConfig } from './config';

const load = (env: Record<string, string>) => loadOrganizationsConfig(loadConfig(env));

describe('loadOrganizationsConfig', () => {
  it('defaults to 50 add-school requests a day, a 1 s program cache and the swot seed', () => {
    expect(load({})).toMatchObject({ addSchoolDailyLimit: 50, programCacheMs: 1000, seed: 'swot' });
  });

  it('defaults single sign-on to 5 s per provider call, 5 min of discovery and public addresses only', () => {
    expect(load({}).sso).toEqual({ httpTimeoutMs: 5000, discoveryCacheMs: 300_000, allowCidrs: [] });
  });

  it('reads every setting', () => {
    const own = load({
      ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT: '3',
      ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS: '0',
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_ORGANIZATIONS_DB_POOL_MAX: '7',
      ELIGO_ORGANIZATIONS_SSO_HTTP_TIMEOUT_MS: '2500',
      ELIGO_ORGANIZATIONS_SSO_DISCOVERY_CACHE_MS: '0',
      ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    });
    expect(own).toEqual({
      schema: 'organizations',
      poolMax: 7,
      addSchoolDailyLimit: 3,
      programCacheMs: 0,
      seed: 'none',
      sso: { httpTimeoutMs: 2500, discoveryCacheMs: 0, allowCidrs: [expect.anything()] },
    });
  });

  it('uses the shared pool size unless its own is set', () => {
    expect(load({ ELIGO_DB_POOL_MAX: '3' }).poolMax).toBe(3);
  });

  it.each([
    ['ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT', '0'],
    ['ELIGO_ORGANIZATIONS_ADD_SCHOOL_DAILY_LIMIT', '2.5'],
    ['ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS', '-1'],
    ['ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS', 'soon'],
    ['ELIGO_ORGANIZATIONS_SEED', 'all'],
    ['ELIGO_ORGANIZATIONS_SSO_HTTP_TIMEOUT_MS', '50'],
    ['ELIGO_ORGANIZATIONS_SSO_DISCOVERY_CACHE_MS', '-1'],
    ['ELIGO_WEBHOOK_ALLOW_CIDRS', '127.0.0.1'],
  ])('refuses %s=%j at boot', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
  });
});
