import { join } from 'node:path';
import {
  freePort,
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';

// The split deployment: the same code as all-in-one, each part in its own process, calls crossing processes.
const token = `eligo_admin_${'split'.repeat(6)}`;
const backend = ['verification', 'documents', 'organizations', 'reports', 'notifier'];
let db: Awaited<ReturnType<typeof freshDatabase>>;
let data: ReturnType<typeof tempDataDir>;
const procs: EligoProcess[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  data = tempDataDir();
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  await db?.drop();
  data?.remove();
});

const info = async (gw: EligoProcess) => {
  const res = await fetch(`${gw.httpUrl}/rest/v2/info`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { modules: { module: string; status: string; hostName: string }[] };
  return Object.fromEntries(body.modules.map((m) => [m.module, m.status]));
};

it('refuses to start a gateway without the addresses of the services it calls, naming them', async () => {
  const gw = await startEligo(['start', '--target', 'gateway'], {
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: token,
  });
  expect(await gw.exited).not.toBe(0);
  expect(gw.output()).toContain('ELIGO_PROGRAMS_GRPC_ADDRESS');
  expect(gw.output()).toContain('ELIGO_VERIFICATION_GRPC_ADDRESS');
});

it('runs --target gateway,programs against the other services in a second process', async () => {
  const env = { ...realServersEnv(db.url), ELIGO_DATA_DIR: data.dir, ELIGO_ADMIN_TOKEN: token };
  // Each process calls the other: the backend services read programs, which runs beside the gateway.
  const gatewayGrpcPort = await freePort();
  const services = await startEligo(['start', '--target', backend.join(',')], {
    ...env,
    ELIGO_PROGRAMS_GRPC_ADDRESS: `127.0.0.1:${gatewayGrpcPort}`,
  });
  procs.push(services);
  await waitReady(services);
  const addresses = Object.fromEntries(
    backend.map((m) => [`ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`, `127.0.0.1:${services.grpcPort}`]),
  );
  const gw = await startEligo(['start', '--target', 'gateway,programs'], {
    ...env,
    ...addresses,
    ELIGO_GRPC_PORT: String(gatewayGrpcPort),
  });
  procs.push(gw);
  await waitReady(gw);
  expect(await info(gw)).toEqual({
    programs: 'SERVING',
    verification: 'SERVING',
    documents: 'SERVING',
    organizations: 'SERVING',
    reports: 'SERVING',
    notifier: 'SERVING',
  });

  // The other process goes away: the gateway still answers, reporting what it cannot reach.
  expect(await services.stop('SIGTERM')).toBe(0);
  const after = await info(gw);
  expect(after.programs).toBe('SERVING');
  for (const m of backend) expect(after[m]).toBe('UNAVAILABLE');
}, 120_000);

it('starts a service through its own entry point (services/<name>/dist/src/main.js)', async () => {
  const env = { ...realServersEnv(db.url), ELIGO_DATA_DIR: data.dir, ELIGO_ADMIN_TOKEN: token };
  const programs = await startEligo([], env, join(__dirname, '../../services/programs/dist/src/main.js'));
  procs.push(programs);
  await waitReady(programs);
  expect(programs.output()).toContain('Eligo is running: programs');
  expect(await programs.stop('SIGTERM')).toBe(0);
}, 60_000);
