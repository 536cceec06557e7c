import {
  freePort,
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';
import { programsApi } from '../support/programs-api';
import { verificationApi } from '../support/verification-api';

// Programs in its own process, everything else in another: a programs outage must not close the gateway's
// path to verification, which is healthy (issue 18, item 9: breakers chained the outage).
const token = `eligo_admin_${'chain'.repeat(6)}`;
const others = ['gateway', 'verification', 'organizations', 'documents', 'reports', 'notifier'];
// The default breaker reset period (BreakerOptions.resetTimeoutMs) and the channel's max reconnect backoff.
const resetTimeoutMs = 10_000;
const reconnectMs = 2_000;
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

it('keeps verification reachable through a programs outage, and recovers within one reset period', async () => {
  const [programsPort, othersPort] = [await freePort(), await freePort()];
  const address = (port: number) => `127.0.0.1:${port}`;
  const env = {
    ...realServersEnv(db.url),
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ADMIN_TOKEN: token,
    ...Object.fromEntries(others.map((m) => [`ELIGO_${m.toUpperCase()}_GRPC_ADDRESS`, address(othersPort)])),
    ELIGO_PROGRAMS_GRPC_ADDRESS: address(programsPort),
  };
  const startPrograms = async () => {
    const p = await startEligo(['start', '--target', 'programs'], {
      ...env,
      ELIGO_GRPC_PORT: String(programsPort),
    });
    procs.push(p);
    await waitReady(p);
    return p;
  };
  const programs = await startPrograms();
  const rest = await startEligo(['start', '--target', others.join(',')], {
    ...env,
    ELIGO_GRPC_PORT: String(othersPort),
    // Verification keeps the programs it read: those stay usable while programs is down.
    ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '60000',
  });
  procs.push(rest);
  await waitReady(rest);

  const api = programsApi({ httpUrl: rest.httpUrl, adminToken: token });
  const { account, program: cached } = await api.tenant('Chain Co');
  const { programId: uncached } = await api.createProgram(account.accountId);
  const flow = verificationApi(api);
  const { verificationId } = await flow.started(cached.programId, 'chain-1');

  expect(await programs.stop('SIGKILL')).toBe(null);
  // Enough failures to open any breaker (volumeThreshold 5) that counted them.
  for (let i = 0; i < 8; i++) expect((await flow.start(uncached)).status).toBe(503);
  // Verification answers what it can without programs: its breaker at the gateway did not open.
  expect((await flow.get(verificationId)).status).toBe(200);
  expect((await flow.start(cached.programId)).status).toBe(200);

  await startPrograms();
  const back = Date.now();
  let status = 503;
  while (status !== 200 && Date.now() - back < resetTimeoutMs + reconnectMs + 3000) {
    status = (await flow.start(uncached)).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  // Only verification's breaker for programs was open (programs was down): at most one reset period, plus
  // the reconnection of its channel when the half-open probe came too early.
  expect(status).toBe(200);
  expect(Date.now() - back).toBeLessThan(resetTimeoutMs + reconnectMs + 1000);
}, 180_000);
