import { createServer } from 'node:net';

/** A port that was free a moment ago on 127.0.0.1 (for embedded servers that need a fixed port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * freePort, but never one of `avoid`: the ports this process is about to listen on itself (configured, not yet
 * bound, so free to the kernel, which hands recently released ports out again).
 */
export async function freePortExcept(avoid: readonly number[]): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = await freePort();
    if (!avoid.includes(port)) return port;
  }
  throw new Error(`no free port outside ${avoid.join(', ')}`);
}
