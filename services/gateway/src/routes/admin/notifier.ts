import { Router, type NextFunction, type Request, type Response } from 'express';
import { decodeGrpcError, notFound } from '@eligo/runtime';
import type { NotifierClient } from '../../clients/notifier.client';
import {
  DELIVERY_ID_PATTERN,
  listMessages,
  listWebhookDeliveries,
  resendWebhookDelivery,
  type DeliveryListQuery,
  type MessageListQuery,
} from '../../endpoints/admin-notifier';
import { routeTable } from '../../endpoints/route-table';
import { RestError } from '../../errors';
import { messagePageToJson, webhookDeliveryPageToJson, webhookDeliveryToJson } from '../../mapping/notifier';
import { present } from '../../mapping/program';
import { hexIdParam, programNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminNotifierRouteOptions {
  notifier: NotifierClient;
}

const DELIVERY_ID = new RegExp(DELIVERY_ID_PATTERN);

/** A webhookId the notifier cannot have given is answered like an unknown one, without a call. */
function deliveryIdParam(req: Request, _res: Response, next: NextFunction): void {
  const value = req.params.deliveryId;
  next(typeof value === 'string' && DELIVERY_ID.test(value) ? undefined : notFound('Delivery not found'));
}

/** The notifier's reasons for sending nothing (FAILED_PRECONDITION), answered 409 with the reason as errorId. */
const RESEND_REFUSALS: ReadonlySet<string> = new Set([
  'deliveryPending',
  'noWebhook',
  'notOptedIn',
  'webhookDisabled',
]);

function resendRefused(err: unknown): never {
  const decoded = decodeGrpcError(err);
  if (decoded.codeName === 'FAILED_PRECONDITION' && decoded.reason && RESEND_REFUSALS.has(decoded.reason))
    throw new RestError(409, decoded.message, 'ER', [decoded.reason]);
  throw err;
}

/**
 * The notifier's logs for staff (operator token or a staff session checked by the admin router), as
 * endpoints/admin-notifier.ts defines them: a program's webhook health and deliveries with their attempts (all,
 * or one verification's), the resend of a delivery, and the send-link messages (sent by SMTP or kept by the
 * local capture).
 */
export function adminNotifierRouter({ notifier }: AdminNotifierRouteOptions): Router {
  async function listDeliveries(req: Request, res: Response) {
    const query = res.locals.query as DeliveryListQuery;
    const reply = await notifier.listWebhookDeliveries({
      programId: req.params.programId as string,
      limit: query.limit ?? 0,
      cursor: query.cursor ?? '',
      verificationId: query.verificationId ?? '',
    });
    res.json(webhookDeliveryPageToJson(reply));
  }

  async function resend(req: Request, res: Response) {
    const reply = await notifier
      .resendWebhookDelivery({
        programId: req.params.programId as string,
        webhookId: req.params.deliveryId as string,
      })
      .catch(resendRefused);
    res.status(202).json(webhookDeliveryToJson(present(reply.delivery, 'delivery')));
  }

  // Recipients are personal data and bodies carry verification links and codes: no cache may keep them.
  async function listSentMessages(_req: Request, res: Response) {
    const query = res.locals.query as MessageListQuery;
    const reply = await notifier.listMessages({
      limit: query.limit ?? 0,
      cursor: query.cursor ?? '',
      requestId: query.requestId ?? '',
      verificationId: query.verificationId ?? '',
    });
    res.set('Cache-Control', 'no-store').json(messagePageToJson(reply));
  }

  const programIdParam = hexIdParam('programId', programNotFound);
  const router = routeTable(Router(), [
    {
      endpoint: listWebhookDeliveries,
      // An unknown program is 404 before its query is judged.
      before: [programIdParam],
      handler: listDeliveries,
    },
    { endpoint: resendWebhookDelivery, before: [programIdParam, deliveryIdParam], handler: resend },
    { endpoint: listMessages, handler: listSentMessages },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
