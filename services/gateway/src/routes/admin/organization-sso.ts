import { Router, type NextFunction, type Request, type Response } from 'express';
import { status as Status } from '@grpc/grpc-js';
import { decodeGrpcError } from '@eligo/runtime';
import type { OrganizationsClient } from '../../clients/organizations.client';
import {
  deleteOrganizationSso,
  getOrganizationSso,
  putOrganizationSso,
  type OrganizationSsoBody,
  type OrganizationSsoJson,
} from '../../endpoints/admin-organization-sso';
import { routeTable } from '../../endpoints/route-table';
import { RestError } from '../../errors';
import { organizationSsoRequestToProto, organizationSsoToJson } from '../../mapping/organization-sso';
import { present } from '../../mapping/program';
import { integerIdParam, organizationNotFound } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

/**
 * An organization's single sign-on (endpoints/admin-organization-sso.ts), after the admin API's JSON parser.
 * The write-only client secret travels to the organizations service only; no answer carries it.
 */
export function adminOrganizationSsoRouter({
  organizations,
}: {
  organizations: OrganizationsClient;
}): Router {
  const organizationIdOf = (req: Request) => Number(req.params.organizationId);

  async function put(req: Request, res: Response) {
    const { sso } = await organizations.setOrganizationSso(
      organizationSsoRequestToProto(organizationIdOf(req), req.body as OrganizationSsoBody),
    );
    res.json(organizationSsoToJson(present(sso, 'sso')) satisfies OrganizationSsoJson);
  }

  async function get(req: Request, res: Response) {
    const { sso } = await organizations.getOrganizationSso({ organizationId: organizationIdOf(req) });
    res.json(organizationSsoToJson(present(sso, 'sso')) satisfies OrganizationSsoJson);
  }

  async function remove(req: Request, res: Response) {
    await organizations.deleteOrganizationSso({ organizationId: organizationIdOf(req) });
    res.status(204).end();
  }

  const organizationId = [integerIdParam('organizationId', organizationNotFound)];
  const router = routeTable(Router(), [
    { endpoint: putOrganizationSso, before: organizationId, handler: put },
    { endpoint: getOrganizationSso, before: organizationId, handler: get, errors: [noSso] },
    { endpoint: deleteOrganizationSso, before: organizationId, handler: remove, errors: [noSso] },
  ]);
  router.use(adminInvalidRequest);
  return router;
}

/** The service's NOT_FOUND without an errorId is a known organization without single sign-on: ER, as stated. */
function noSso(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const decoded = decodeGrpcError(err);
  if (decoded.code !== Status.NOT_FOUND || decoded.errorIds.length > 0) return next(err);
  next(new RestError(404, 'The organization has no single sign-on', 'ER', []));
}
