import { Router } from 'express';
import type { OrganizationsClient } from '../../clients/organizations.client';
import { importFormat, importFromRequest } from '../../import/import-request';
import {
  acceptInputToProto,
  addSchoolRequestToJson,
  addSchoolStatusNames,
  addSchoolStatusToProto,
  organizationDetailToJson,
  type AddSchoolAcceptInput,
} from '../../mapping/organization';
import { present } from '../../mapping/program';
import {
  addSchoolRequestNotFound,
  hexIdParam,
  integerIdParam,
  organizationNotFound,
} from '../../validation/path-ids';
import { optionalEnum, optionalHexId, optionalInt, strictQuery } from '../../validation/query-params';
import type { RequestValidator } from '../../validation/request-validator';
import { optionalPlainText } from '../plain-query';
import { adminInvalidRequest } from './invalid-request';

export interface AdminOrganizationImportOptions {
  organizations: OrganizationsClient;
  maxBytes: number;
  batchDeadlineMs: number;
}

/**
 * POST /organizations: the bulk import. Mounted ahead of the admin API's JSON parser, which must not read
 * (nor size-limit) this body: the import streams it.
 */
export function adminOrganizationImportRouter(options: AdminOrganizationImportOptions): Router {
  const router = Router();
  router.post('/organizations', async (req, res) => {
    const summary = await importFromRequest(req, {
      format: importFormat(req),
      maxBytes: options.maxBytes,
      send: (rows) =>
        options.organizations.importOrganizations({ rows }, { deadlineMs: options.batchDeadlineMs }),
    });
    res.json(summary);
  });
  router.use(adminInvalidRequest);
  return router;
}

export interface AdminOrganizationRouteOptions {
  organizations: OrganizationsClient;
  validator: RequestValidator;
}

/** The catalog and the add-school review queue (operator token checked by the admin router). */
export function adminOrganizationRouter({ organizations, validator }: AdminOrganizationRouteOptions): Router {
  const router = Router();
  const requestId = hexIdParam('requestId', addSchoolRequestNotFound);

  router.get(
    '/organizations/:organizationId',
    integerIdParam('organizationId', organizationNotFound),
    async (req, res) => {
      const { organization } = await organizations.getOrganization({
        organizationId: Number(req.params.organizationId),
      });
      res.json(organizationDetailToJson(present(organization, 'organization')));
    },
  );

  router.get('/addSchoolRequests', async (req, res) => {
    strictQuery(req.query, ['status', 'programId', 'pageSize', 'pageToken']);
    const status = optionalEnum(req.query, 'status', addSchoolStatusNames);
    const reply = await organizations.listAddSchoolRequests({
      status: addSchoolStatusToProto(status),
      programId: optionalHexId(req.query, 'programId') ?? '',
      pageSize: optionalInt(req.query, 'pageSize', 1, 500) ?? 0,
      pageToken: optionalPlainText(req.query, 'pageToken', 1000) ?? '',
    });
    res.json({
      requests: reply.requests.map(addSchoolRequestToJson),
      nextPageToken: reply.nextPageToken || null,
    });
  });

  router.post(
    '/addSchoolRequests/:requestId/accept',
    requestId,
    validator.body('AddSchoolAcceptRequest'),
    async (req, res) => {
      const reply = await organizations.acceptAddSchoolRequest({
        requestId: req.params.requestId as string,
        organization: acceptInputToProto(req.body as AddSchoolAcceptInput),
      });
      res.json({
        request: addSchoolRequestToJson(present(reply.request, 'request')),
        organization: organizationDetailToJson(present(reply.organization, 'organization')),
      });
    },
  );

  // The reason is optional, and so is the body that would carry it.
  router.post(
    '/addSchoolRequests/:requestId/decline',
    requestId,
    validator.body('AddSchoolDeclineRequest', { optional: true }),
    async (req, res) => {
      const { reason } = (req.body ?? {}) as { reason?: string };
      const reply = await organizations.declineAddSchoolRequest({
        requestId: req.params.requestId as string,
        reason: reason ?? '',
      });
      res.json({ request: addSchoolRequestToJson(present(reply.request, 'request')) });
    },
  );

  router.use(adminInvalidRequest);
  return router;
}
