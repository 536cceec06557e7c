import { once } from 'node:events';
import { Router, type Request, type Response } from 'express';
import { unavailable } from '@eligo/runtime';
import {
  adminExportAudit,
  adminListAudit,
  type AuditExportQuery,
  type AuditListQuery,
} from '../../endpoints/admin-audit';
import { routeTable } from '../../endpoints/route-table';
import { matchesFormat } from '../../endpoints/schemas';
import { invalidRequest } from '../../errors';
import { auditEntryToJson, auditPageToJson } from '../../mapping/staff';
import type { StaffAccess } from '../../staff/staff-access';
import type { AuditFilter } from '../../staff/store';
import { adminInvalidRequest } from './invalid-request';

export interface AdminAuditRouteOptions {
  /** The gateway's staff identities and audit log; undefined where it keeps none (route tests): 503. */
  staff: StaffAccess | undefined;
}

/** The audit log of the admin API, as endpoints/admin-audit.ts defines it: a page of it, or all of it as NDJSON. */
export function adminAuditRouter({ staff }: AdminAuditRouteOptions): Router {
  const access = (): StaffAccess => {
    if (!staff) throw unavailable('This gateway keeps no audit log');
    return staff;
  };

  async function list(_req: Request, res: Response) {
    const query = res.locals.query as AuditListQuery;
    const page = await access().listAudit(filterOf(query), {
      limit: query.limit ?? 100,
      cursor: query.cursor,
    });
    res.set('Cache-Control', 'no-store').json(auditPageToJson(page));
  }

  // Read in batches and written as it goes, waiting for the client when its buffer is full: the memory a
  // large export takes is one batch, whatever the size of the log.
  async function exportAll(_req: Request, res: Response) {
    const filter = filterOf(res.locals.query as AuditExportQuery);
    const entries = access().exportAudit(filter)[Symbol.asyncIterator]();
    // The first batch before the status: a failure to read is still answered as an error, not a cut stream.
    const first = await entries.next();
    res
      .status(200)
      .set({ 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
    let next = first;
    while (!next.done) {
      if (!res.write(`${JSON.stringify(auditEntryToJson(next.value))}\n`))
        await Promise.race([once(res, 'drain'), once(res, 'close')]);
      if (res.destroyed) return;
      next = await entries.next();
    }
    res.end();
  }

  const router = routeTable(Router(), [
    { endpoint: adminListAudit, handler: list },
    { endpoint: adminExportAudit, handler: exportAll },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

function filterOf(query: AuditExportQuery): AuditFilter {
  return {
    ...(query.actor !== undefined ? { actor: query.actor } : {}),
    ...(query.action !== undefined ? { action: query.action } : {}),
    ...(query.from !== undefined ? { from: instant('from', query.from) } : {}),
    ...(query.to !== undefined ? { to: instant('to', query.to) } : {}),
  };
}

/**
 * A date-time the pattern let through but the calendar does not have (2025-02-30) is refused too, as JSON
 * Schema's date-time refuses it; a leap second (23:59:60) is the second before, which Date cannot hold.
 */
function instant(name: string, value: string): Date {
  const at = matchesFormat('date-time', value) ? new Date(value.replace(/:60(?=[.Zz+-])/, ':59')) : undefined;
  if (!at || Number.isNaN(at.getTime()))
    throw invalidRequest(`query.${name} must be an RFC 3339 date-time that exists`);
  return at;
}
