import type { Knex } from 'knex';
import { watchServiceModule } from '../metrics/service-gauges';
import type { Config } from '../config/config';
import type { ModuleName } from '../config/schema';
import { createDb, pingDb } from '../db/knex';
import { migrateSchema, type SchemaMigration } from '../db/migrate';
import { topicFor } from '../events/cloudevents';
import { createEventConsumer, type EventConsumerOptions } from '../events/event-consumer';
import type { Subscription } from '../events/event-bus';
import { OutboxRelay } from '../events/outbox-relay';
import { serviceBaseMigrations } from '../events/migrations';
import { startConsumerLagGauge } from './consumer-lag-gauge';
import { consumerCounter } from './consumer-metrics';
import type { ModuleDeps } from './deps';
import type { GrpcServiceBinding, Module } from './module';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job';

/** What a backend service (one Postgres schema, one events topic, gRPC API) declares; the plumbing is shared. */
export interface ServiceModuleSpec {
  name: ModuleName;
  dependsOn: readonly ModuleName[];
  /**
   * The Postgres schema the service owns; no query of the service leaves it
   * (docs/architecture.md, "Data ownership").
   */
  schema: string;
  /** The service's own migrations (migrations/ of the service), applied after the shared outbox/inbox tables. */
  migrations: readonly SchemaMigration[];
  /** Pool size of this module's own connection pool. */
  poolMax: number;
  grpcServices(context: ServiceContext): GrpcServiceBinding[];
  /** Background passes (sweeps, retention) run while the module runs, after its migrations. */
  jobs?(context: ServiceContext): Omit<PeriodicJobOptions, 'logger'>[];
  /**
   * Event consumers (exactly-once effects through the service's inbox), subscribed after the migrations and
   * stopped before the relay. The consumed topics are created when missing, so start order does not matter.
   */
  consumers?(context: ServiceContext): ServiceConsumer[];
}

/** A consumer of the service's own schema: the module fills in the bus, pool, schema and logger. */
export type ServiceConsumer = Omit<EventConsumerOptions, 'bus' | 'db' | 'schema' | 'logger'>;

export interface ServiceContext {
  db: Knex;
  deps: ModuleDeps;
  config: Config;
}

/**
 * A module with its own pool on its own schema, migrations applied at start (own migrations table), its
 * events topic created, and the outbox relay publishing what its transactions enqueue.
 */
export function createServiceModule(spec: ServiceModuleSpec, config: Config, deps: ModuleDeps): Module {
  const db = createDb({
    url: deps.databaseUrl,
    schema: spec.schema,
    poolMax: spec.poolMax,
    applicationName: `eligo-${spec.name}`,
    preparedStatements: config.database.preparedStatements,
    logger: deps.logger,
  });
  const relay = new OutboxRelay({
    db,
    schema: spec.schema,
    bus: deps.bus,
    pollIntervalMs: config.outboxPollMs,
    lingerMs: config.outboxLingerMs,
    logger: deps.logger,
  });
  const context: ServiceContext = { db, deps, config };
  const jobs = (spec.jobs?.(context) ?? []).map((job) => new PeriodicJob({ ...job, logger: deps.logger }));
  const consumers = spec.consumers?.(context) ?? [];
  let subscriptions: Subscription[] = [];
  let stopLagGauge = (): void => undefined;
  let stopGauges = (): void => undefined;
  const migrate = async (): Promise<void> => {
    const applied = await migrateSchema(db, spec.schema, [...serviceBaseMigrations, ...spec.migrations]);
    if (applied.length > 0) deps.logger.info({ schema: spec.schema, applied }, 'migrations applied');
  };
  return {
    name: spec.name,
    dependsOn: spec.dependsOn,
    grpcServices: spec.grpcServices(context),
    migrate,
    async start() {
      await migrate();
      const consumed = consumers.flatMap((c) => c.topics);
      await deps.bus.ensureTopics([...new Set([topicFor(spec.name), ...consumed])]);
      relay.start();
      stopGauges = watchServiceModule(deps.metrics, spec.name, { db, schema: spec.schema });
      deps.parkedEvents.register(spec.name, {
        db,
        schema: spec.schema,
        consumers: new Map(consumers.map((c) => [c.name, c])),
        logger: deps.logger,
      });
      const onCount = consumerCounter(deps.metrics, spec.name);
      // Resolves without waiting for the consumers to join their groups (kafka-bus.ts): readiness is about
      // serving; a join that takes long shows as lag, one that fails for good stops the process.
      subscriptions = await Promise.all(
        consumers.map((c) =>
          createEventConsumer({
            ...c,
            bus: deps.bus,
            db,
            schema: spec.schema,
            logger: deps.logger,
            maxAttempts: config.eventMaxAttempts,
            onCount,
          }),
        ),
      );
      stopLagGauge = startConsumerLagGauge(
        deps.metrics,
        spec.name,
        consumers.map((c, i) => ({ name: c.name, subscription: subscriptions[i]! })),
        deps.logger,
      );
      for (const job of jobs) job.start();
    },
    async stop() {
      stopLagGauge();
      stopGauges();
      await Promise.all(jobs.map((job) => job.stop()));
      await Promise.all(subscriptions.map((s) => s.stop()));
      subscriptions = [];
      await relay.stop();
      await db.destroy();
    },
    ready: () => pingDb(db),
  };
}
