import { Writable } from 'node:stream';
import { createLogger } from '../logging/logger';
import { createDb } from './knex';

// knex reports what goes wrong with its pool (a connection it could not acquire) through its log hooks: with a
// module's logger they are JSON lines of that logger, not console output outside the log (which also breaks a
// test runner when a late attempt logs after its tests ended).
it("routes the client's warnings to the module's logger", async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const consoleLog = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const db = createDb({
    // Nothing listens on port 1: acquiring a connection fails at once.
    url: 'postgres://nobody:secret@127.0.0.1:1/none',
    schema: 'knex_log',
    poolMax: 1,
    applicationName: 'knex-log-test',
    logger: createLogger({ level: 'info' }, sink),
  });
  try {
    await expect(db.raw('select 1')).rejects.toThrow();
    await db.transaction(async () => undefined).catch(() => undefined);
  } finally {
    await db.destroy();
  }
  const entries = lines.map((l) => JSON.parse(l) as { msg: string; component: string; detail: string });
  expect(entries.some((e) => e.msg === 'database client' && e.component === 'db')).toBe(true);
  expect(lines.join('')).not.toContain('secret');
  expect(consoleLog).not.toHaveBeenCalled();
  expect(consoleWarn).not.toHaveBeenCalled();
  consoleLog.mockRestore();
  consoleWarn.mockRestore();
});
