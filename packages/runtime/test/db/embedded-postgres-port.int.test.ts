import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { freePort } from '../../src/db/ports';

/**
 * The embedded Postgres starts before the process listens: a port the process is configured to listen on is
 * free at that moment, and the server must not take it (CI saw `listen EADDRINUSE` on the HTTP port, which
 * the kernel had handed to the server too). Here the port kept from an earlier run is the HTTP port.
 */
describe('the embedded Postgres', () => {
  it('never takes a port the process is about to listen on, even the one it kept from an earlier run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eligo-embedded-port-'));
    const httpPort = await freePort();
    writeFileSync(join(dir, 'postgres.json'), JSON.stringify({ password: 'p'.repeat(36), port: httpPort }));
    const server = await startEmbeddedPostgres(dir, pino({ level: 'silent' }), { avoidPorts: [httpPort] });
    try {
      expect(Number(new URL(server.url).port)).not.toBe(httpPort);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
