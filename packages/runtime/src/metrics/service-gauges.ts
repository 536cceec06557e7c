import type { Knex } from 'knex';
import { Gauge } from 'prom-client';
import type { MetricsRegistry } from './registry';

/** What a service module lets the scrape read: its pool, and its outbox's unpublished rows. */
interface Watched {
  db: Knex;
  schema: string;
}

/** Pool counters of knex's pool (tarn), which knex does not type. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

const watchedBy = new WeakMap<MetricsRegistry, Map<string, Watched>>();

/** How long a scrape waits for a module's outbox count: a database that hangs must not hang /metrics. */
const OUTBOX_QUERY_MS = 2_000;

/**
 * Scrape-time gauges of every service module in the process: the database pool
 * (`eligo_db_pool_connections{module,state}`: used, free, pending acquires) and the outbox
 * (`eligo_outbox_backlog{module}`: rows not yet published; `eligo_outbox_oldest_age_seconds{module}`: how long the
 * oldest of them has waited, 0 when none). Read when Prometheus scrapes, not sampled: the values are current.
 * Modules of one process share the registry and the metric names, so the gauges are created once per registry
 * and read every module registered; the returned function unregisters this one (module stop).
 */
export function watchServiceModule(registry: MetricsRegistry, module: string, watched: Watched): () => void {
  let modules = watchedBy.get(registry);
  if (!modules) {
    modules = new Map();
    watchedBy.set(registry, modules);
    createGauges(registry, modules);
  }
  modules.set(module, watched);
  return () => modules.delete(module);
}

function createGauges(registry: MetricsRegistry, modules: Map<string, Watched>): void {
  new Gauge({
    name: 'eligo_db_pool_connections',
    help: 'Connections of each module’s database pool: used, free, and acquires waiting for one (pending)',
    labelNames: ['module', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [module, { db }] of modules) {
        const pool = (db.client as { pool?: TarnPool }).pool;
        if (!pool) continue;
        this.set({ module, state: 'used' }, pool.numUsed());
        this.set({ module, state: 'free' }, pool.numFree());
        this.set({ module, state: 'pending' }, pool.numPendingAcquires());
      }
    },
  });
  // One read of every outbox per scrape, shared by both gauges (the registry collects metrics concurrently).
  let reading: Promise<Map<string, OutboxState>> | undefined;
  const read = () =>
    (reading ??= readOutboxes(modules).finally(() => {
      reading = undefined;
    }));
  new Gauge({
    name: 'eligo_outbox_backlog',
    help: 'Events of each module’s outbox not yet published to the bus',
    labelNames: ['module'],
    registers: [registry],
    async collect() {
      const states = await read();
      this.reset();
      for (const [module, state] of states) this.set({ module }, state.backlog);
    },
  });
  new Gauge({
    name: 'eligo_outbox_oldest_age_seconds',
    help: 'How long the oldest event of each module’s outbox has waited to be published (0: none waits)',
    labelNames: ['module'],
    registers: [registry],
    async collect() {
      const states = await read();
      this.reset();
      for (const [module, state] of states) this.set({ module }, state.ageSeconds);
    },
  });
}

interface OutboxState {
  backlog: number;
  ageSeconds: number;
}

/** Every module's outbox; a module whose database does not answer in time reports nothing rather than a wrong 0. */
async function readOutboxes(modules: Map<string, Watched>): Promise<Map<string, OutboxState>> {
  const states = new Map<string, OutboxState>();
  await Promise.all(
    [...modules].map(async ([module, { db, schema }]) => {
      const state = await outboxState(db, schema).catch(() => undefined);
      if (state) states.set(module, state);
    }),
  );
  return states;
}

async function outboxState(db: Knex, schema: string): Promise<OutboxState> {
  const query = db
    .withSchema(schema)
    .from('outbox')
    .whereNull('published_at')
    .select(
      db.raw('count(*)::int as backlog'),
      db.raw('coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age'),
    )
    .timeout(OUTBOX_QUERY_MS, { cancel: true });
  const [row] = (await query) as { backlog: number; age: number }[];
  return { backlog: row?.backlog ?? 0, ageSeconds: row?.age ?? 0 };
}
