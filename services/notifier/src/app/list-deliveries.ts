import { invalidArgument, notFound } from '@eligo/runtime';
import { isId } from '@eligo/vocabulary';
import { encodeCursor, parsePageQuery } from '../domain/page';
import { attemptsOf, type AttemptRecord } from '../repository/attempts.repository';
import { listDeliveries, type DeliveryRecord } from '../repository/deliveries.repository';
import { findEndpoint } from '../repository/endpoints.repository';
import type { AppContext } from './context';

export interface EndpointView {
  status: 'NONE' | 'ACTIVE' | 'DISABLED';
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string;
}

export interface DeliveriesPage {
  endpoint: EndpointView;
  deliveries: (DeliveryRecord & { attempts: AttemptRecord[] })[];
  nextCursor: string;
}

/**
 * The operator's delivery log of a program: the endpoint's health and the deliveries, newest first (keyset
 * cursor on created_at, id), each with its attempts (one query for the page, one for all its attempts).
 * With a verification id, only the deliveries made for that verification (a support case starts from one).
 */
export async function listWebhookDeliveries(
  ctx: AppContext,
  request: { programId: string; limit: number; cursor: string; verificationId: string },
): Promise<DeliveriesPage> {
  const query = parsePageQuery(request);
  if (request.verificationId !== '' && !isId(request.verificationId))
    throw invalidArgument('verificationId must be 24 lowercase hex characters');
  const lookup = await ctx.programs.webhookOf(request.programId);
  if (lookup.kind === 'unknown-program') throw notFound('Program not found');
  const endpoint = await findEndpoint(ctx.db, request.programId);
  // One more than asked tells whether another page follows, without a count.
  const records = await listDeliveries(ctx.db, {
    programId: request.programId,
    verificationId: request.verificationId || null,
    limit: query.limit + 1,
    before: query.before,
  });
  const page = records.slice(0, query.limit);
  const attempts = await attemptsOf(
    ctx.db,
    page.map((d) => d.id),
  );
  const last = page[page.length - 1];
  return {
    endpoint: {
      status: lookup.kind === 'none' ? 'NONE' : endpoint?.status === 'disabled' ? 'DISABLED' : 'ACTIVE',
      failingSince: lookup.kind === 'webhook' ? (endpoint?.failingSince ?? null) : null,
      disabledAt: endpoint?.status === 'disabled' ? endpoint.disabledAt : null,
      disabledReason: endpoint?.status === 'disabled' ? (endpoint.disabledReason ?? '') : '',
    },
    deliveries: page.map((d) => withAttempts(d, attempts)),
    nextCursor:
      records.length > query.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : '',
  };
}

/** A delivery with its own attempts among those read for a page. */
export function withAttempts(
  delivery: DeliveryRecord,
  attempts: readonly AttemptRecord[],
): DeliveryRecord & { attempts: AttemptRecord[] } {
  return { ...delivery, attempts: attempts.filter((a) => a.deliveryId === delivery.id) };
}
