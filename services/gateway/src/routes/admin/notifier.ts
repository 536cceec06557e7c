import { Router } from 'express';
import type { NotifierClient } from '../../clients/notifier.client';
import { messagePageToJson, webhookDeliveryPageToJson } from '../../mapping/notifier';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import { optionalHexId, optionalInt, strictQuery } from '../../validation/query-params';
import { optionalPlainText } from '../plain-query';
import { adminInvalidRequest } from './invalid-request';

export interface AdminNotifierRouteOptions {
  notifier: NotifierClient;
}

/**
 * The notifier's logs for staff (operator token checked by the admin router): a program's webhook health and
 * deliveries with their attempts, and the send-link messages (sent by SMTP or kept by the local capture).
 */
export function adminNotifierRouter({ notifier }: AdminNotifierRouteOptions): Router {
  const router = Router();

  router.get(
    '/programs/:programId/webhook/deliveries',
    hexIdParam('programId', programNotFound),
    async (req, res) => {
      strictQuery(req.query, ['limit', 'cursor']);
      const reply = await notifier.listWebhookDeliveries({
        programId: req.params.programId as string,
        limit: optionalInt(req.query, 'limit', 1, 100) ?? 0,
        cursor: optionalPlainText(req.query, 'cursor', 1000) ?? '',
      });
      res.json(webhookDeliveryPageToJson(reply));
    },
  );

  // Recipients are personal data and bodies carry verification links: no cache may keep them.
  router.get('/messages', async (req, res) => {
    strictQuery(req.query, ['limit', 'cursor', 'requestId']);
    const reply = await notifier.listMessages({
      limit: optionalInt(req.query, 'limit', 1, 100) ?? 0,
      cursor: optionalPlainText(req.query, 'cursor', 1000) ?? '',
      requestId: optionalHexId(req.query, 'requestId') ?? '',
    });
    res.set('Cache-Control', 'no-store').json(messagePageToJson(reply));
  });

  router.use(adminInvalidRequest);
  return router;
}
