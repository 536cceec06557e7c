import {
  freshDatabase,
  realServersEnv,
  startEligo,
  tempDataDir,
  waitReady,
  type EligoProcess,
} from '../support/eligo-process';

// Readiness after a hard restart with Kafka: the consumer groups still hold the killed process's members
// until their sessions expire (30 s), and becoming ready must not wait for that rebalance.
const token = `eligo_admin_${'restart'.repeat(5)}`;
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

/** Consumer groups a process started (kafkajs logs "Starting") and those that joined ("has joined"). */
function groups(proc: EligoProcess): { started: Set<string>; joined: Set<string> } {
  const started = new Set<string>();
  const joined = new Set<string>();
  for (const line of proc.output().split('\n')) {
    const groupId = /"groupId":"([^"]+)"/.exec(line)?.[1];
    if (!groupId) continue;
    if (line.includes('"msg":"Starting"')) started.add(groupId);
    if (line.includes('"msg":"Consumer has joined the group"')) joined.add(groupId);
  }
  return { started, joined };
}

/** When the process logged its first line containing text (epoch ms). */
function loggedAt(proc: EligoProcess, text: string): number {
  const line = proc
    .output()
    .split('\n')
    .find((l) => l.includes(text));
  return Date.parse(/"time":"([^"]+)"/.exec(line ?? '')?.[1] ?? '');
}

async function allJoined(proc: EligoProcess, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { started, joined } = groups(proc);
    if (started.size > 0 && [...started].every((g) => joined.has(g))) return started.size;
    if (Date.now() > deadline)
      throw new Error(`consumer groups not joined after ${timeoutMs} ms:\n${proc.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('is ready within 5 s of a restart after SIGKILL, the consumers joining in the background', async () => {
  const env = {
    ...realServersEnv(db.url),
    ELIGO_ADMIN_TOKEN: token,
    ELIGO_DATA_DIR: data.dir,
    ELIGO_ORGANIZATIONS_SEED: 'none',
  };
  const first = await startEligo(['start', '--target', 'all'], env);
  procs.push(first);
  await waitReady(first, 120_000);
  // Every consumer group has a live member, which the kill below leaves behind in the broker.
  const consumerGroups = await allJoined(first, 60_000);
  expect(consumerGroups).toBeGreaterThanOrEqual(3);
  expect(await first.stop('SIGKILL')).toBeNull();

  const t0 = Date.now();
  const second = await startEligo(['start', '--target', 'all'], env);
  procs.push(second);
  await waitReady(second, 90_000);
  const readyMs = Date.now() - t0;
  // The figure, and where the time went: loading (first log line), then starting (until "eligo started").
  const logged = (text: string) => loggedAt(second, text) - t0;
  process.stdout.write(
    `restart readiness: ${readyMs} ms from spawn to /readyz 200 ` +
      `(first log line at ${logged('"level"')} ms, "eligo started" at ${logged('eligo started')} ms)\n`,
  );
  expect(readyMs).toBeLessThan(5000);

  // The groups still join once the dead members' sessions expire, and their lag is exported meanwhile.
  expect(await allJoined(second, 60_000)).toBe(consumerGroups);
  const metrics = await (await fetch(`${second.httpUrl}/metrics`)).text();
  expect(metrics).toMatch(/eligo_event_consumer_lag\{[^}]*module="notifier"[^}]*consumer="send-link"/);
  expect(await second.stop('SIGTERM')).toBe(0);
}, 240_000);
