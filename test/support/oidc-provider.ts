import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './eligo-process';

export interface ProviderClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export interface OidcProvider {
  issuer: string;
  stop(): Promise<void>;
}

/** A port for a provider that starts later: Eligo is configured with its issuer before it listens. */
export async function providerIssuer(): Promise<{ port: number; issuer: string }> {
  const port = await freePort();
  return { port, issuer: `http://127.0.0.1:${port}` };
}

/**
 * Starts the OpenID provider of test/support/oidc-provider-server.mjs (the oidc-provider package) on that port:
 * its sign-in form takes any password, and the login is the account id; `accounts` gives each login its
 * claims (email, email_verified, any other). The other options are the server's (see its header). Resolves
 * once it listens; stop() ends it.
 */
export async function startOidcProvider(options: {
  port: number;
  clients: ProviderClient[];
  accounts: Record<string, { email?: string; email_verified?: boolean; [claim: string]: unknown }>;
  claims?: Record<string, string[]>;
  issuer?: string;
  freshKeys?: boolean;
  clockOffsetSeconds?: number;
}): Promise<OidcProvider> {
  const child = spawn(
    process.execPath,
    [join(__dirname, 'oidc-provider-server.mjs'), JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the provider did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`the provider exited (${code}):\n${output}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
