import { endpointPaths } from '.';
import { withoutEmptySecurity } from './no-token';

describe('operations that take no token', () => {
  it('state no security requirement, the others theirs', () => {
    const paths = withoutEmptySecurity({
      '/open': { parameters: [], get: { security: [], summary: 'open' }, post: { security: [{}] } },
      '/closed': { servers: [], get: { security: [{ bearerToken: [] }] } },
    });
    expect(paths).toEqual({
      '/open': { parameters: [], get: { summary: 'open' }, post: { security: [{}] } },
      '/closed': { servers: [], get: { security: [{ bearerToken: [] }] } },
    });
  });

  it('are so stated in the path items of the definitions', () => {
    const paths = endpointPaths('https://eligo.test') as Record<
      string,
      Record<string, { security?: unknown }>
    >;
    expect(paths['/organization/addSchool']!.post).not.toHaveProperty('security');
    expect(paths['/openapi.json']!.get).not.toHaveProperty('security');
    expect(paths['/info']!.get!.security).toEqual([
      { bearerToken: [] },
      { oauthClientCredentials: [] },
      { operatorToken: [] },
    ]);
  });
});
