import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { ENV, ensureInfra, freePort } from '../src';

/** Runs one query on a fresh connection; rejects when the server does not answer. */
async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('ensureInfra', () => {
  it('starts a real Postgres that answers queries, takes a given one as is, and stops only its own', async () => {
    // useGiven: false, so that ELIGO_TEST_* variables of the developer's shell do not turn this into a no-op.
    const infra = await ensureInfra({ only: ['postgres'], useGiven: false });
    const url = infra.env[ENV.databaseUrl] ?? '';
    const [server] = infra.started;
    try {
      expect(url).toMatch(/^postgres:\/\/postgres:[^@]+@[^:]+:\d+\/postgres$/);
      expect(infra.started.map((s) => s.service)).toEqual(['postgres']);
      expect(await query<{ answer: number }>(url, 'SELECT 40 + 2 AS answer')).toEqual([{ answer: 42 }]);
      // Superuser, as the suites need it to create a schema and a role per suite.
      expect(
        await query<{ rolsuper: boolean }>(url, 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user'),
      ).toEqual([{ rolsuper: true }]);

      // The explicit-URL step: a server given by the environment is used as it is, and never stopped.
      const given = await ensureInfra({
        only: ['postgres'],
        env: { ...process.env, [ENV.databaseUrl]: url },
      });
      expect(given.started).toEqual([]);
      expect(given.given).toEqual(['postgres']);
      expect(given.env).toEqual({ [ENV.databaseUrl]: url });
      await given.stop();
      expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await infra.stop();
    }

    await expect(query(url, 'SELECT 1')).rejects.toThrow();
    if (server?.via === 'process') {
      expect(pidAlive(server.pid ?? 0)).toBe(false);
      expect(fs.existsSync(server.dir ?? '')).toBe(false);
    }
  }, 120_000);
});

describe('freePort', () => {
  it('returns distinct ports that a server can listen on', async () => {
    const [a, b] = [await freePort(), await freePort()];
    expect(a).not.toBe(b);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(a, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
