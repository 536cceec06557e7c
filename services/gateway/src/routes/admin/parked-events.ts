import { Router, type Request, type Response } from 'express';
import type { commonV1 } from '@eligo/proto';
import { notFound } from '@eligo/runtime';
import { parkingModules, type ParkedEventsClient } from '../../clients/parked-events.client';
import {
  getParkedEvent,
  listParkedEvents,
  ParkedEventReplay,
  replayParkedEvent,
  type ParkedEventJson,
  type ParkedEventListJson,
  type ParkedEventListQuery,
  type ParkedEventReplayJson,
} from '../../endpoints/admin-parked-events';
import { listedValue } from '../../endpoints/admin-common';
import { routeTable } from '../../endpoints/route-table';
import { present } from '../../mapping/program';
import { integerIdParam } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

const parkedEventNotFound = () => notFound('Parked event not found');

/**
 * Events a consumer parked after failing on them ELIGO_EVENT_MAX_ATTEMPTS times in a row (operator token
 * checked by the admin router), as endpoints/admin-parked-events.ts defines them: list them across modules,
 * inspect one, replay it once its cause is fixed.
 */
export function adminParkedEventsRouter({ parkedEvents }: { parkedEvents: ParkedEventsClient }): Router {
  async function list(_req: Request, res: Response) {
    const query = res.locals.query as ParkedEventListQuery;
    const limit = query.limit ?? 100;
    const request = {
      consumer: query.consumer ?? '',
      parkedOnly: (query.status ?? 'parked') === 'parked',
      limit,
      beforeId: query.beforeId ?? 0,
    };
    // Without a module, each is asked for a page and the newest `limit` of them all are kept.
    const modules = query.module ? [query.module] : [...parkingModules];
    const pages = await Promise.all(modules.map((m) => parkedEvents.list({ ...request, module: m })));
    const events = pages
      .flatMap((p) => p.events)
      .sort((a, b) => (b.parkedAt?.getTime() ?? 0) - (a.parkedAt?.getTime() ?? 0))
      .slice(0, limit);
    res
      .set('Cache-Control', 'no-store')
      .json({ events: events.map(parkedEventToJson) } satisfies ParkedEventListJson);
  }

  async function getOne(req: Request, res: Response) {
    const reply = await parkedEvents.get({
      module: moduleParam(req.params.module as string),
      id: Number(req.params.id),
    });
    res.set('Cache-Control', 'no-store').json(parkedEventToJson(reply.event!));
  }

  async function replay(req: Request, res: Response) {
    const reply = await parkedEvents.replay({
      module: moduleParam(req.params.module as string),
      id: Number(req.params.id),
    });
    res.json({
      outcome: listedValue(ParkedEventReplay.shape.outcome, reply.outcome, 'replay outcome'),
      event: parkedEventToJson(reply.event!),
    } satisfies ParkedEventReplayJson);
  }

  const eventId = [integerIdParam('id', parkedEventNotFound)];
  const router = routeTable(Router(), [
    { endpoint: listParkedEvents, handler: list },
    { endpoint: getParkedEvent, before: eventId, handler: getOne },
    { endpoint: replayParkedEvent, before: eventId, handler: replay },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

/** A module without consumers names no parked event: answered like an unknown id. */
function moduleParam(module = ''): string {
  if (!(parkingModules as readonly string[]).includes(module)) throw parkedEventNotFound();
  return module;
}

function parkedEventToJson(e: commonV1.ParkedEvent): ParkedEventJson {
  return {
    module: e.module,
    id: e.id,
    consumer: e.consumer,
    ceId: e.ceId,
    ceType: e.ceType,
    topic: e.topic,
    partition: e.partition,
    offset: e.offset,
    error: e.error,
    attempts: e.attempts,
    parkedAt: present(e.parkedAt, 'parkedAt').toISOString(),
    replayedAt: e.replayedAt?.toISOString() ?? null,
    headers: e.headers,
    payloadBytes: e.payloadBytes,
  };
}
