import { commonV1 } from '@eligo/proto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { invalidArgument, notFound } from '../errors/domain-error';
import { errorText, processMessage, type EventConsumerOptions } from '../events/event-consumer';
import {
  findParkedEvent,
  listParkedEvents,
  recordReplay,
  type ParkedEventRow,
} from '../events/parked-events';
import { bindService } from '../grpc/unary';
import type { GrpcServiceBinding } from './module';

/** What one module tells the registry: where its parked events live and the consumers that can replay them. */
export interface ModuleParking {
  db: Knex;
  schema: string;
  consumers: ReadonlyMap<string, Pick<EventConsumerOptions, 'handlers'>>;
  logger: Logger;
}

/**
 * The parked events of every module this process hosts, behind one eligo.common.v1.ParkedEventsService
 * (a gRPC server hosts a service name once, and all-in-one holds several modules with consumers): requests
 * name the module, the registry finds its schema and consumers.
 */
export class ParkedEventsRegistry {
  private readonly modules = new Map<string, ModuleParking>();

  register(module: string, parking: ModuleParking): void {
    this.modules.set(module, parking);
  }

  binding(logger: Logger): GrpcServiceBinding {
    const moduleOf = (name: string): ModuleParking => {
      const found = this.modules.get(name);
      if (!found) throw notFound(`This process has no event consumers of module "${name}"`);
      return found;
    };
    const rowOf = async (m: ModuleParking, id: number): Promise<ParkedEventRow> => {
      const row = id > 0 ? await findParkedEvent(m.db, m.schema, id) : undefined;
      if (!row) throw notFound(`No parked event ${id}`);
      return row;
    };
    return bindService(
      commonV1.ParkedEventsServiceService,
      {
        listParkedEvents: async (req) => {
          const m = moduleOf(req.module);
          const limit = req.limit === 0 ? 100 : req.limit;
          if (limit < 1 || limit > 500) throw invalidArgument('limit must be 1..500');
          const rows = await listParkedEvents(m.db, m.schema, {
            consumer: req.consumer || undefined,
            parkedOnly: req.parkedOnly,
            limit,
            beforeId: Number(req.beforeId) || undefined,
          });
          return { events: rows.map((r) => toMessage(req.module, r)) };
        },
        getParkedEvent: async (req) => {
          const m = moduleOf(req.module);
          return { event: toMessage(req.module, await rowOf(m, Number(req.id))) };
        },
        replayParkedEvent: async (req) => {
          const m = moduleOf(req.module);
          const row = await rowOf(m, Number(req.id));
          const consumer = m.consumers.get(row.consumer);
          if (!consumer) throw notFound(`Consumer ${row.consumer} no longer exists`);
          let outcome: string;
          try {
            const processed = await processMessage(
              {
                db: m.db,
                schema: m.schema,
                name: row.consumer,
                handlers: consumer.handlers,
                logger: m.logger,
              },
              {
                topic: row.topic,
                partition: row.partition,
                offset: row.offset,
                key: row.key,
                headers: row.headers,
                value: row.value,
              },
            );
            outcome = processed;
            await recordReplay(m.db, m.schema, row.id, { ok: true });
            m.logger.info({ consumer: row.consumer, ceId: row.ceId, outcome }, 'parked event replayed');
          } catch (err) {
            outcome = 'failed';
            await recordReplay(m.db, m.schema, row.id, { ok: false, error: errorText(err) });
            m.logger.warn({ err, consumer: row.consumer, ceId: row.ceId }, 'parked event failed again');
          }
          return { event: toMessage(req.module, await rowOf(m, row.id)), outcome };
        },
      },
      logger,
    );
  }
}

function toMessage(module: string, r: ParkedEventRow): commonV1.ParkedEvent {
  return {
    id: r.id,
    module,
    consumer: r.consumer,
    ceId: r.ceId,
    ceType: r.ceType,
    topic: r.topic,
    partition: r.partition,
    offset: r.offset,
    error: r.error,
    attempts: r.attempts,
    parkedAt: r.parkedAt,
    replayedAt: r.replayedAt ?? undefined,
    headers: r.headers,
    payloadBytes: r.value.length,
  };
}
