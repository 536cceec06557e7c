import type { Client } from 'pg';
import type { Logger } from '../logging/logger';
import { backoffDelay, sleep, type BackoffOptions } from '../util/backoff';

export interface PgListenerOptions {
  /**
   * Opens a dedicated connection: LISTEN belongs to a session, which a pooled knex connection cannot keep.
   * `close` ends it (also after a failure).
   */
  connect: () => Promise<Client>;
  close: (client: Client) => Promise<void>;
  channel: string;
  logger: Logger;
  /** Called for each notification on the channel, and after every (re)connect since some may have been missed. */
  onNotify: () => void;
  reconnect?: BackoffOptions;
}

/**
 * Holds one LISTEN connection and reconnects it with backoff when it drops. Losing it only slows the relay
 * down to its polling interval, so failures are logged and retried, never thrown.
 */
export class PgListener {
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: PgListenerOptions) {}

  /** Resolves after the first connection attempt, whether it succeeded or not. */
  start(): Promise<void> {
    return new Promise((firstAttempt) => {
      this.loop = this.run(firstAttempt);
    });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  private async run(firstAttempt: () => void): Promise<void> {
    const { channel, logger, onNotify } = this.options;
    const signal = this.stopping.signal;
    for (let failures = 0; !signal.aborted;) {
      let opened: Client | undefined;
      try {
        const client = await this.options.connect();
        opened = client;
        const lost = new Promise<unknown>((resolve) => {
          client.on('error', resolve); // also keeps a dropped connection from becoming an uncaught error
          client.on('end', () => resolve(new Error('connection ended')));
          signal.addEventListener('abort', () => resolve(undefined), { once: true });
          // stop() during connect(): the abort has fired already and its listener above never will.
          if (signal.aborted) resolve(undefined);
        });
        client.on('notification', (n) => {
          if (n.channel === channel) onNotify();
        });
        await client.query(`LISTEN "${channel}"`);
        failures = 0;
        firstAttempt();
        onNotify();
        const reason = await lost;
        if (!signal.aborted) {
          failures = 1; // pause before reconnecting, so a flapping server is not hammered
          logger.warn({ err: reason, channel }, 'LISTEN connection lost; reconnecting');
        }
      } catch (err) {
        failures += 1;
        firstAttempt();
        logger.warn(
          { err, channel, failures },
          'LISTEN connection failed; relying on polling until it is back',
        );
      }
      if (opened) await this.options.close(opened).catch(() => undefined);
      if (failures > 0 && !signal.aborted) {
        await sleep(
          backoffDelay(failures, this.options.reconnect ?? { initialMs: 500, maxMs: 30_000 }),
          signal,
        );
      }
    }
  }
}
