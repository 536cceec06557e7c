import { Router, type Request, type Response } from 'express';
import type { OrganizationsClient } from '../../clients/organizations.client';
import { importOrganizations, type ImportSummaryJson } from '../../endpoints/admin-organization-import';
import type {
  AddSchoolAcceptedJson,
  AddSchoolDeclinedJson,
  AddSchoolRequestPageJson,
  OrganizationDetailJson,
} from '../../endpoints/admin-organization-schemas';
import {
  acceptAddSchoolRequest,
  declineAddSchoolRequest,
  getOrganization,
  listAddSchoolRequests,
  type AcceptBody,
  type AddSchoolListQuery,
  type DeclineBody,
} from '../../endpoints/admin-organizations';
import { routeTable } from '../../endpoints/route-table';
import { importFormat, importFromRequest } from '../../import/import-request';
import {
  acceptInputToProto,
  addSchoolRequestToJson,
  addSchoolStatusToProto,
  organizationDetailToJson,
} from '../../mapping/organization';
import { present } from '../../mapping/program';
import {
  addSchoolRequestNotFound,
  hexIdParam,
  integerIdParam,
  organizationNotFound,
} from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminOrganizationImportOptions {
  organizations: OrganizationsClient;
  maxBytes: number;
  batchDeadlineMs: number;
}

/**
 * POST /organizations: the bulk import, as endpoints/admin-organization-import.ts defines it. Mounted ahead
 * of the admin API's JSON parser, which must not read (nor size-limit) this body: the import streams it and
 * checks it row by row (src/import).
 */
export function adminOrganizationImportRouter(options: AdminOrganizationImportOptions): Router {
  async function importCatalog(req: Request, res: Response) {
    const summary = await importFromRequest(req, {
      format: importFormat(req),
      maxBytes: options.maxBytes,
      send: (rows) =>
        options.organizations.importOrganizations({ rows }, { deadlineMs: options.batchDeadlineMs }),
    });
    res.json(summary satisfies ImportSummaryJson);
  }

  const router = routeTable(Router(), [{ endpoint: importOrganizations, handler: importCatalog }]);
  router.use(adminInvalidRequest);
  return router;
}

export interface AdminOrganizationRouteOptions {
  organizations: OrganizationsClient;
}

/**
 * The catalog and the add-school review queue (operator token checked by the admin router), as
 * endpoints/admin-organizations.ts defines them.
 */
export function adminOrganizationRouter({ organizations }: AdminOrganizationRouteOptions): Router {
  async function getCatalogOrganization(req: Request, res: Response) {
    const { organization } = await organizations.getOrganization({
      organizationId: Number(req.params.organizationId),
    });
    res.json(
      organizationDetailToJson(present(organization, 'organization')) satisfies OrganizationDetailJson,
    );
  }

  async function listRequests(_req: Request, res: Response) {
    const query = res.locals.query as AddSchoolListQuery;
    const reply = await organizations.listAddSchoolRequests({
      status: addSchoolStatusToProto(query.status),
      programId: query.programId ?? '',
      pageSize: query.pageSize ?? 0,
      pageToken: query.pageToken ?? '',
    });
    res.json({
      requests: reply.requests.map(addSchoolRequestToJson),
      nextPageToken: reply.nextPageToken || null,
    } satisfies AddSchoolRequestPageJson);
  }

  async function acceptRequest(req: Request, res: Response) {
    const reply = await organizations.acceptAddSchoolRequest({
      requestId: req.params.requestId as string,
      organization: acceptInputToProto(req.body as AcceptBody),
    });
    res.json({
      request: addSchoolRequestToJson(present(reply.request, 'request')),
      organization: organizationDetailToJson(present(reply.organization, 'organization')),
    } satisfies AddSchoolAcceptedJson);
  }

  // The reason is optional, and so is the body that would carry it.
  async function declineRequest(req: Request, res: Response) {
    const { reason } = (req.body ?? {}) as DeclineBody;
    const reply = await organizations.declineAddSchoolRequest({
      requestId: req.params.requestId as string,
      reason: reason ?? '',
    });
    res.json({
      request: addSchoolRequestToJson(present(reply.request, 'request')),
    } satisfies AddSchoolDeclinedJson);
  }

  const requestId = [hexIdParam('requestId', addSchoolRequestNotFound)];
  const router = routeTable(Router(), [
    {
      endpoint: getOrganization,
      before: [integerIdParam('organizationId', organizationNotFound)],
      handler: getCatalogOrganization,
    },
    { endpoint: listAddSchoolRequests, handler: listRequests },
    { endpoint: acceptAddSchoolRequest, before: requestId, handler: acceptRequest },
    { endpoint: declineAddSchoolRequest, before: requestId, handler: declineRequest },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
