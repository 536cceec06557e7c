import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { z } from 'zod';
import { defineEndpoint } from './define';
import { routeTable } from './route-table';

// The access log and the HTTP metrics name a request by its route template (the runtime's http/access.ts):
// the route table gives it from the definition, under the router's mount point, never the request's path.
it('names each request by its definition’s path under the mount point', async () => {
  const endpoint = defineEndpoint({
    method: 'get',
    path: '/things/{thingId}',
    operationId: 'getThing',
    summary: 'A thing',
    tags: [],
    security: [],
    params: z.object({ thingId: z.string().meta({ description: 'The thing' }) }),
    responses: { '200': { description: 'The thing' } },
  });
  const app = express();
  app.use(
    '/rest/v2',
    routeTable(Router(), [{ endpoint, handler: (_req, res) => void res.json({ route: res.locals.route }) }]),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/rest/v2/things/abc123`);
  expect(await res.json()).toEqual({ route: '/rest/v2/things/{thingId}' });
  server.close();
});
