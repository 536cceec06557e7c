import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * Real OpenID providers for the single sign-on tests: test/support/oidc-provider-server.mjs (the certified
 * oidc-provider package), each in its own process, and a front on one address that forwards to one of them,
 * so that a test can swap the provider behind an issuer: one with keys the issuer does not publish (a forged
 * ID token), one whose clock is late (expired tokens), or none (down).
 */
const SERVER = join(__dirname, '../../../test/support/oidc-provider-server.mjs');

export interface ProviderOptions {
  clients: { client_id: string; client_secret?: string; redirect_uris: string[] }[];
  accounts: Record<string, Record<string, unknown>>;
  claims?: Record<string, string[]>;
  issuer?: string;
  freshKeys?: boolean;
  clockOffsetSeconds?: number;
}

export interface RunningProvider {
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a provider on a free port; resolves once it listens. */
export async function startProvider(options: ProviderOptions): Promise<RunningProvider> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER, JSON.stringify({ port, ...options })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the provider did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready \S+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`the provider exited (${code}):\n${output}`)));
  });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface ProviderFront {
  /** http://127.0.0.1:<port>: the issuer of the providers behind it. */
  url: string;
  /** The provider requests go to; undefined: every connection is dropped (a provider that is down). */
  target: number | undefined;
  /** Where the keys (/jwks) are always read: the provider the issuer's keys belong to. */
  keysFrom: number;
  close(): Promise<void>;
}

/** A plain forwarding front; the Host header is kept, so the providers build their URLs on the front's. */
export async function startFront(port: number, keysFrom: number): Promise<ProviderFront> {
  const front: ProviderFront = { url: `http://127.0.0.1:${port}`, target: keysFrom, keysFrom, close };
  const server = http.createServer((req, res) => {
    const to = req.url?.startsWith('/jwks') ? front.keysFrom : front.target;
    if (to === undefined) return req.socket.destroy();
    const forwarded = http.request(
      { host: '127.0.0.1', port: to, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  function close() {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return front;
}
