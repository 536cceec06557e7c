import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../test/rest-app';
import { openApiDocument } from '../openapi/document';

// GET /info and GET /openapi.json as mounted by mountRest: the first needs a token, the second none.
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({
    modules: {
      readAll: async () => [{ module: 'programs', status: 'SERVING', version: '1.2.3' }],
    },
  });
});
afterAll(() => app.close());

async function get(path: string, token?: string) {
  const res = await fetch(`${app.origin}/rest/v2${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('the service information', () => {
  it('serves the document without a token', async () => {
    expect(await get('/openapi.json')).toEqual({
      status: 200,
      body: JSON.parse(JSON.stringify(openApiDocument('https://eligo.example.com'))),
    });
  });

  it('answers the build information of the gateway and its modules to any token', async () => {
    expect(await get('/info', TEST_OPERATOR_TOKEN)).toEqual({
      status: 200,
      body: {
        name: 'eligo',
        apiVersion: '2.0.0',
        version: 'test',
        gitCommit: 'test',
        modules: [{ module: 'programs', status: 'SERVING', version: '1.2.3' }],
      },
    });
  });

  it('refuses the build information without a token', async () => {
    expect((await get('/info')).status).toBe(401);
  });
});
