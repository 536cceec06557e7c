import { randomBytes } from 'node:crypto';
import { programsV1 } from '@eligo/proto';
import { createClient } from '@eligo/runtime';
import {
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';

// A split deployment whose processes share an internal token: nothing reaches a service without it.
const admin = `eligo_admin_${'internal'.repeat(4)}`;
const internalToken = randomBytes(32).toString('base64url');
const modules = ['programs', 'verification', 'documents', 'organizations', 'reports', 'notifier'];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
let services: EligoProcess;
const procs: EligoProcess[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
  services = await startEligo(['start', '--target', 'programs'], {
    ...realServersEnv(db.url),
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: admin,
    ELIGO_INTERNAL_TOKEN: internalToken,
  });
  procs.push(services);
  await waitReady(services);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  await db?.drop();
  data?.remove();
});

const rawGetInfo = async (token?: string) => {
  const client = createClient(programsV1.ProgramsServiceClient, `127.0.0.1:${services.grpcPort}`, {
    breaker: false,
    retry: { maxAttempts: 1 },
    internalToken: token,
  });
  try {
    return await client.unary('getInfo', {});
  } finally {
    client.close();
  }
};

it('refuses a raw gRPC call without the token (or with another) with UNAUTHENTICATED', async () => {
  await expect(rawGetInfo()).rejects.toMatchObject({ code: 16 });
  await expect(rawGetInfo(randomBytes(32).toString('base64url'))).rejects.toMatchObject({ code: 16 });
  expect((await rawGetInfo(internalToken)).buildInfo?.module).toBe('programs');
  // The refusal is logged by method and code, never with the token.
  expect(services.output()).toContain('UNAUTHENTICATED');
  expect(services.output()).not.toContain(internalToken);
});

it('a gateway holding the token works through it; one without it reaches nothing', async () => {
  const addresses = Object.fromEntries(
    modules.map((m) => [`ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`, `127.0.0.1:${services.grpcPort}`]),
  );
  const gateway = (token?: string) =>
    startEligo(['start', '--target', 'gateway'], {
      ...realServersEnv(db.url),
      ELIGO_DATA_DIR: data.dir,
      ELIGO_ADMIN_TOKEN: admin,
      ...addresses,
      ...(token ? { ELIGO_INTERNAL_TOKEN: token } : {}),
    });
  const programsStatus = async (gw: EligoProcess) => {
    const res = await fetch(`${gw.httpUrl}/rest/v2/info`, { headers: { authorization: `Bearer ${admin}` } });
    const body = (await res.json()) as { modules: { module: string; status: string }[] };
    return body.modules.find((m) => m.module === 'programs')?.status;
  };
  const trusted = await gateway(internalToken);
  const stranger = await gateway();
  procs.push(trusted, stranger);
  await Promise.all([waitReady(trusted), waitReady(stranger)]);

  expect(await programsStatus(trusted)).toBe('SERVING');
  const created = await fetch(`${trusted.httpUrl}/rest/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Internal Co' }),
  });
  expect(created.status).toBe(201);
  expect(await programsStatus(stranger)).toBe('UNAVAILABLE');
}, 90_000);

it('a split process refuses to serve gRPC beyond loopback without a token, naming the settings', async () => {
  const proc = await startEligo(['start', '--target', 'programs'], {
    ...realServersEnv(db.url),
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: admin,
    ELIGO_GRPC_BIND_HOST: '0.0.0.0',
  });
  procs.push(proc);
  expect(await proc.exited).not.toBe(0);
  expect(proc.output()).toContain('refusing to serve gRPC on 0.0.0.0 without call authentication');
  expect(proc.output()).toContain('ELIGO_GRPC_INSECURE=true');
}, 60_000);
