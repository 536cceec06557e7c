import { createServer, type Server } from 'node:net';

/**
 * `n` distinct free ports on 127.0.0.1: all listened on at once, then released, so that no two are the same
 * (two calls of freePort() one after the other may return the same port).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const srv = createServer();
      servers.push(srv);
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => {
      const addr = s.address();
      return typeof addr === 'object' && addr ? addr.port : 0;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}
