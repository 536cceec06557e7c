import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminCommand } from './commands';

// `eligo admin accounts list` and `eligo admin programs list` against a local stand-in of the admin API: every
// page is read by following nextCursor, with the filters on each page, and printed as one JSON list.
const token = 'eligo_operator_secret_0123456789';
const requests: string[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.headers.authorization === `Bearer ${token}` ? '' : 'NO TOKEN '}${req.url}`);
    const url = new URL(req.url!, 'http://x');
    const items = url.pathname === '/rest/admin/v1/accounts' ? 'accounts' : 'programs';
    const cursor = url.searchParams.get('cursor');
    const page = cursor === null ? 1 : Number(cursor.slice('page-'.length));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ [items]: [{ n: page }], nextCursor: page < 3 ? `page-${page + 1}` : null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

async function eligoAdmin(...args: string[]): Promise<unknown> {
  requests.length = 0;
  const printed: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await adminCommand({ ELIGO_ADMIN_URL: origin, ELIGO_ADMIN_TOKEN: token }).parseAsync(args, {
      from: 'user',
    });
  } finally {
    write.mockRestore();
  }
  return JSON.parse(printed.join(''));
}

it('lists every account, page after page, with the name filter on each', async () => {
  expect(await eligoAdmin('accounts', 'list', '--name', 'acme & co')).toEqual({
    accounts: [{ n: 1 }, { n: 2 }, { n: 3 }],
  });
  expect(requests).toEqual([
    '/rest/admin/v1/accounts?limit=100&name=acme+%26+co',
    '/rest/admin/v1/accounts?limit=100&name=acme+%26+co&cursor=page-2',
    '/rest/admin/v1/accounts?limit=100&name=acme+%26+co&cursor=page-3',
  ]);
});

it('lists programs with the filters given, and none of those left out (also as `program list`)', async () => {
  const account = 'ab'.repeat(12);
  expect(await eligoAdmin('programs', 'list', '--account', account, '--mode', 'live')).toEqual({
    programs: [{ n: 1 }, { n: 2 }, { n: 3 }],
  });
  expect(requests[0]).toBe(`/rest/admin/v1/programs?limit=100&accountId=${account}&mode=live`);
  await eligoAdmin('program', 'list', '--segment', 'student', '--name', 'Spring');
  expect(requests[2]).toBe('/rest/admin/v1/programs?limit=100&segment=student&name=Spring&cursor=page-3');
});
