import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const compiled = join(__dirname, '..', '..', 'dist', 'events', 'kafka-bus.js');

/**
 * kafkajs requires a request's encoder at every request; loadConsumerProtocol loads them up front through
 * the kafkajs module that asks, so that Node answers those requires from its cache. Run in a child process on
 * the compiled runtime: jest's module registry replaces the Node cache this is about.
 */
describe('the consumer protocol preload', () => {
  it('leaves nothing for Node to resolve at each fetch, offset commit and heartbeat', () => {
    if (!existsSync(compiled)) throw new Error(`${compiled} is missing: build the runtime first`);
    const out = execFileSync(process.execPath, [join(__dirname, 'fixtures', 'protocol-resolutions.js')], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({ resolutions: 0 });
  });
});
