import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { responseConformance } from './response-conformance';

// A document of one operation: 200 with {id: string}, 404 with a SEM body; nothing else.
const document = {
  servers: [{ url: 'https://eligo.example.com/rest/v2' }],
  paths: {
    '/things/{thingId}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
          '204': { description: 'nothing' },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' } },
        additionalProperties: false,
      },
      Sem: {
        type: 'object',
        required: ['systemErrorMessage'],
        properties: { systemErrorMessage: { type: 'string' } },
      },
    },
    responses: {
      NotFound: {
        description: 'none',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Sem' } } },
      },
    },
  },
};

async function answer(status: number, body: unknown, path = '/rest/v2/things/a1'): Promise<string[]> {
  const conformance = responseConformance(document, 'https://eligo.example.com');
  const app = express();
  app.use(conformance.middleware);
  app.get('/*any', (_req, res) => void res.status(status).json(body));
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}?q=1`);
  server.close();
  return conformance.violations;
}

describe('responseConformance', () => {
  it('accepts answers the document declares, refs resolved', async () => {
    expect(await answer(200, { id: 'a1' })).toEqual([]);
    expect(await answer(404, { systemErrorMessage: 'Not found' })).toEqual([]);
  });

  it('reports a body that breaks the declared schema', async () => {
    const [violation] = await answer(200, { id: 7 });
    expect(violation).toMatch(/^GET \/rest\/v2\/things\/a1 -> 200: .*must be string/);
    expect(await answer(404, { errorIds: ['noThing'] })).toHaveLength(1);
  });

  it('reports a status the operation does not declare, and a JSON body where none is declared', async () => {
    expect(await answer(409, { systemErrorMessage: 'x' })).toEqual([
      'GET /rest/v2/things/a1 -> 409: the status is not declared',
    ]);
    expect(await answer(204, { id: 'a1' })).toEqual([
      'GET /rest/v2/things/a1 -> 204: a JSON body where the document declares none',
    ]);
  });

  it('leaves answers outside the document alone (unknown paths are the 404/405 tables’ business)', async () => {
    expect(await answer(404, { anything: true }, '/rest/v2/elsewhere')).toEqual([]);
  });
});
