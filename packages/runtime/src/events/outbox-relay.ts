import type { Knex } from 'knex';
import type { ClientConfig } from 'pg';
import { inTransaction } from '../db/transaction';
import type { Logger } from '../logging/logger';
import { withComponent } from './component-logger';
import { backoffDelay, sleep, type BackoffOptions } from '../util/backoff';
import { ChangeSignal } from './change-signal';
import type { EventCounter } from './counters';
import type { EventBus } from './event-bus';
import { listenConnector } from './listen-connection';
import { PgListener } from './pg-listener';
import { assertSchemaName, outboxChannel } from './sql-names';

export interface OutboxRelayOptions {
  /** The service's knex instance (its pool on its own schema). */
  db: Knex;
  schema: string;
  bus: EventBus;
  logger: Logger;
  /**
   * Connection for the dedicated LISTEN session; by default one more raw connection of `db`, outside its
   * pool, opened with the same settings.
   */
  listenConnection?: string | ClientConfig;
  /** Fallback when a NOTIFY is missed (listener down, another relay held the lock): how often to look anyway. */
  pollIntervalMs?: number;
  /**
   * After a batch that published something, the next one starts no sooner than this after it started (Kafka's
   * linger.ms on the relay's side): under load the rows committed meanwhile go together, one transaction and
   * one publish for several flows' events. The first row after a quiet spell goes at once. 0: no wait.
   */
  lingerMs?: number;
  batchSize?: number;
  /**
   * Upper bound of one batch's payload + headers in bytes (at least one row is always sent). Kafka refuses a
   * record batch over the broker's message.max.bytes (1 MB by default) for one partition, and retrying the same
   * oversized batch would stall the outbox forever; a byte budget well under it keeps batches acceptable.
   */
  maxBatchBytes?: number;
  /** Backoff after a failed batch (broker or database away). */
  retryBackoff?: BackoffOptions;
  onCount?: EventCounter;
}

// First key of the two-int advisory lock ("Elig" in ASCII), so that our locks stay apart from other users'.
// The second is hashtext(schema); two schemas colliding there would merely take turns, never misorder.
const ADVISORY_LOCK_NAMESPACE = 0x456c6967;

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  headers: Record<string, string>;
  payload: Buffer;
}

/**
 * Publishes a service's outbox rows to the bus in id order and marks them published.
 *
 * Ordering with several relays on one schema (replicas of a service): every batch runs in one transaction
 * whose select first takes a transaction-level advisory lock for the schema, with try-lock semantics. Only the
 * holder selects, publishes and marks rows; the others return at once and wait for the next NOTIFY or
 * poll. Without that lock, `FOR UPDATE SKIP LOCKED` alone would let relay B skip the rows relay A has in
 * flight and publish later rows of the same key first. The lock is released by commit, rollback or a dead
 * session, so a killed relay never blocks the others. SKIP LOCKED stays as a second line: rows are never
 * waited on.
 *
 * Rows are marked published in the same transaction, after the bus acknowledged them. A crash in between
 * republishes the batch: delivery is at-least-once and consumers deduplicate by ce_id (inbox).
 *
 * Id order equals commit order per key as long as writers of one aggregate serialize on it (they update the
 * aggregate row in the same transaction), which the services' use cases do.
 */
export class OutboxRelay {
  private readonly schema: string;
  private readonly logger: Logger;
  private readonly wake = new ChangeSignal();
  private readonly stopping = new AbortController();
  private readonly listener: PgListener;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.schema = assertSchemaName(options.schema);
    this.logger = withComponent(options.logger, 'outbox-relay', { schema: this.schema });
    this.listener = new PgListener({
      ...listenConnector(options.db, options.listenConnection),
      channel: outboxChannel(this.schema),
      logger: this.logger,
      onNotify: () => this.wake.notify(),
    });
  }

  /**
   * Starts listening and publishing. Resolves after the first LISTEN attempt and the first batch attempt,
   * so a caller knows the backlog is being worked on; failures there are retried, never thrown.
   */
  async start(): Promise<void> {
    if (this.loop) throw new Error('outbox relay already started');
    await this.listener.start();
    await new Promise<void>((firstPassDone) => {
      this.loop = this.run(firstPassDone);
    });
  }

  /** Lets the batch in flight finish (published and marked, or rolled back), then releases connections. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake.notify();
    await this.loop;
    await this.listener.stop();
  }

  private async run(firstPassDone: () => void): Promise<void> {
    const pollIntervalMs = this.options.pollIntervalMs ?? 5_000;
    const batchSize = this.options.batchSize ?? 100;
    const lingerMs = this.options.lingerMs ?? 0;
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      const seen = this.wake.current;
      const startedAt = Date.now();
      let published = 0;
      let more = false;
      try {
        ({ published, more } = await this.publishBatch(batchSize));
        failures = 0;
        if (published > 0) this.options.onCount?.('outbox_published', { schema: this.schema }, published);
      } catch (err) {
        failures += 1;
        this.options.onCount?.('outbox_publish_failures', { schema: this.schema }, 1);
        this.logger.warn({ err, failures }, 'outbox batch failed; retrying after a pause');
      }
      firstPassDone();
      if (failures > 0) {
        await sleep(
          backoffDelay(failures, this.options.retryBackoff ?? { initialMs: 200, maxMs: 30_000 }),
          this.stopping.signal,
        );
      } else if (!more) {
        await this.wake.waitSince(seen, pollIntervalMs); // a full batch means more rows are likely waiting
        const lingered = Date.now() - startedAt;
        if (published > 0 && lingered < lingerMs) await sleep(lingerMs - lingered, this.stopping.signal);
      }
    }
    firstPassDone(); // stopped before the first pass
  }

  /**
   * One transaction: lock the schema's relay slot and take the oldest rows (one statement; within the count
   * and byte budgets), publish, mark. `more` says rows were left for the next batch.
   */
  private publishBatch(batchSize: number): Promise<{ published: number; more: boolean }> {
    const { db, bus } = this.options;
    return inTransaction(db, async (trx) => {
      // The lock is an uncorrelated sub-select, evaluated once (an InitPlan) before any row is taken: rows are
      // taken under it or not at all (a lock tried per row could skip the first rows and take later ones).
      const { rows: selected } = await trx.raw<{ rows: OutboxRow[] }>(
        `select id, topic, key, headers, payload from ??.outbox
          where published_at is null and (select pg_try_advisory_xact_lock(?, hashtext(?)))
          order by id limit ? for update skip locked`,
        [this.schema, ADVISORY_LOCK_NAMESPACE, this.schema, batchSize],
      );
      if (selected.length === 0) return { published: 0, more: false };
      const rows = withinByteBudget(selected, this.options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES);
      await bus.publish(
        rows.map((r) => ({ topic: r.topic, key: r.key, value: r.payload, headers: r.headers })),
      );
      await trx
        .withSchema(this.schema)
        .table('outbox')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .update({ published_at: trx.fn.now() });
      return { published: rows.length, more: rows.length < selected.length || selected.length === batchSize };
    });
  }
}

const DEFAULT_MAX_BATCH_BYTES = 512 * 1024;

/** The longest prefix of rows (in id order, so per-key order holds) whose size fits the budget; never empty. */
function withinByteBudget(rows: OutboxRow[], maxBytes: number): OutboxRow[] {
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    total += r.payload.length + r.key.length + JSON.stringify(r.headers).length;
    if (total > maxBytes && i > 0) return rows.slice(0, i);
  }
  return rows;
}
