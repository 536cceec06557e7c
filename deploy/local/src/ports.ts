import net from 'node:net';

/** Ports this process already handed out: the OS may offer a just-closed port again before a server takes it. */
const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, asked from the OS (port 0), so that the harness
 * never collides with servers other people run on fixed ports.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await osPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('could not find a free TCP port on 127.0.0.1');
}

function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port from the OS'));
      });
    });
  });
}
