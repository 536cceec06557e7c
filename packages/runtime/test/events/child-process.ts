import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A fixture from ./fixtures running in its own process. Its stdout speaks JSON lines: `{ready: true}` once
 * it works, `{count, value}` for each counter callback; counts are added into the `totals` shared by every
 * incarnation of a role, so restarts do not lose them.
 */
export class FixtureProcess {
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(fixture: string, config: object, totals: Map<string, number>) {
    this.child = spawn(process.execPath, [join(__dirname, 'fixtures', fixture), JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      this.child.once('exit', (code, signal) =>
        reject(new Error(`${fixture} exited (${code ?? signal}) before it was ready`)),
      );
      createInterface({ input: this.child.stdout! }).on('line', (line) => {
        const message = JSON.parse(line) as { ready?: boolean; count?: string; value?: number };
        if (message.ready) resolve();
        if (message.count) totals.set(message.count, (totals.get(message.count) ?? 0) + (message.value ?? 0));
      });
    });
    this.ready.catch(() => undefined); // observed by whoever awaits it
  }

  /** Like a crash or an OOM kill: no cleanup, no offset commit, no rollback other than the database's own. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** A graceful stop (SIGTERM), escalated to SIGKILL if the fixture has not exited after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
