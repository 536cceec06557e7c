import { Router, type Request, type Response } from 'express';
import type { NotifierClient } from '../../clients/notifier.client';
import {
  listMessages,
  listWebhookDeliveries,
  type DeliveryListQuery,
  type MessageListQuery,
} from '../../endpoints/admin-notifier';
import { routeTable } from '../../endpoints/route-table';
import { messagePageToJson, webhookDeliveryPageToJson } from '../../mapping/notifier';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminNotifierRouteOptions {
  notifier: NotifierClient;
}

/**
 * The notifier's logs for staff (operator token checked by the admin router), as endpoints/admin-notifier.ts
 * defines them: a program's webhook health and deliveries with their attempts, and the send-link messages
 * (sent by SMTP or kept by the local capture).
 */
export function adminNotifierRouter({ notifier }: AdminNotifierRouteOptions): Router {
  async function listDeliveries(req: Request, res: Response) {
    const query = res.locals.query as DeliveryListQuery;
    const reply = await notifier.listWebhookDeliveries({
      programId: req.params.programId as string,
      limit: query.limit ?? 0,
      cursor: query.cursor ?? '',
    });
    res.json(webhookDeliveryPageToJson(reply));
  }

  // Recipients are personal data and bodies carry verification links: no cache may keep them.
  async function listSentMessages(_req: Request, res: Response) {
    const query = res.locals.query as MessageListQuery;
    const reply = await notifier.listMessages({
      limit: query.limit ?? 0,
      cursor: query.cursor ?? '',
      requestId: query.requestId ?? '',
    });
    res.set('Cache-Control', 'no-store').json(messagePageToJson(reply));
  }

  const router = routeTable(Router(), [
    {
      endpoint: listWebhookDeliveries,
      // An unknown program is 404 before its query is judged.
      before: [hexIdParam('programId', programNotFound)],
      handler: listDeliveries,
    },
    { endpoint: listMessages, handler: listSentMessages },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
