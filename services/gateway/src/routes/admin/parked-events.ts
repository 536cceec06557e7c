import { Router } from 'express';
import type { commonV1 } from '@eligo/proto';
import { notFound } from '@eligo/runtime';
import { CONSUMER_NAME, parkingModules, type ParkedEventsClient } from '../../clients/parked-events.client';
import { integerIdParam } from '../../validation/path-ids';
import { optionalEnum, optionalInt, optionalText, strictQuery } from '../../validation/query-params';
import { invalidRequest } from '../../validation/request-validator';
import { adminInvalidRequest } from './invalid-request';

const parkedEventNotFound = () => notFound('Parked event not found');

/**
 * Events a consumer parked after failing on them ELIGO_EVENT_MAX_ATTEMPTS times in a row (operator token
 * checked by the admin router): list them across modules, inspect one, replay it once its cause is fixed.
 */
export function adminParkedEventsRouter({ parkedEvents }: { parkedEvents: ParkedEventsClient }): Router {
  const router = Router();

  router.get('/parked-events', async (req, res) => {
    strictQuery(req.query, ['module', 'consumer', 'status', 'limit', 'beforeId']);
    const module = optionalEnum(req.query, 'module', parkingModules);
    const limit = optionalInt(req.query, 'limit', 1, 500) ?? 100;
    const beforeId = optionalInt(req.query, 'beforeId', 1, 999_999_999);
    const request = {
      consumer: consumerName(optionalText(req.query, 'consumer', 64)),
      parkedOnly: (optionalEnum(req.query, 'status', ['parked', 'all'] as const) ?? 'parked') === 'parked',
      limit,
      beforeId: beforeId ?? 0,
    };
    // Without a module, each is asked for a page and the newest `limit` of them all are kept.
    const modules = module ? [module] : [...parkingModules];
    const pages = await Promise.all(modules.map((m) => parkedEvents.list({ ...request, module: m })));
    const events = pages
      .flatMap((p) => p.events)
      .sort((a, b) => (b.parkedAt?.getTime() ?? 0) - (a.parkedAt?.getTime() ?? 0))
      .slice(0, limit);
    res.set('Cache-Control', 'no-store').json({ events: events.map(parkedEventToJson) });
  });

  const moduleParam = (module = ''): string => {
    if (!(parkingModules as readonly string[]).includes(module)) throw parkedEventNotFound();
    return module;
  };

  router.get('/parked-events/:module/:id', integerIdParam('id', parkedEventNotFound), async (req, res) => {
    const reply = await parkedEvents.get({
      module: moduleParam(req.params.module as string),
      id: Number(req.params.id),
    });
    res.set('Cache-Control', 'no-store').json(parkedEventToJson(reply.event!));
  });

  router.post(
    '/parked-events/:module/:id/replay',
    integerIdParam('id', parkedEventNotFound),
    async (req, res) => {
      const reply = await parkedEvents.replay({
        module: moduleParam(req.params.module as string),
        id: Number(req.params.id),
      });
      res.json({ outcome: reply.outcome, event: parkedEventToJson(reply.event!) });
    },
  );

  router.use(adminInvalidRequest);
  return router;
}

function consumerName(value: string | undefined): string {
  if (value === undefined) return '';
  if (!new RegExp(CONSUMER_NAME).test(value))
    throw invalidRequest('query.consumer must be a consumer name: lowercase letters, digits and hyphens');
  return value;
}

function parkedEventToJson(e: commonV1.ParkedEvent) {
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
    parkedAt: e.parkedAt?.toISOString() ?? null,
    replayedAt: e.replayedAt?.toISOString() ?? null,
    headers: e.headers,
    payloadBytes: e.payloadBytes,
  };
}
