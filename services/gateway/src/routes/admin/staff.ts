import { Router, type Request, type Response } from 'express';
import { notFound, unavailable } from '@eligo/runtime';
import {
  adminCreateStaff,
  adminGetStaff,
  adminListStaff,
  adminResetStaffPassword,
  adminUpdateStaff,
  type StaffCreateBody,
  type StaffListQuery,
  type StaffPatchBody,
} from '../../endpoints/admin-staff-users';
import { routeTable } from '../../endpoints/route-table';
import { staffMemberToJson, staffMemberWithPasswordToJson, staffPageToJson } from '../../mapping/staff';
import type { StaffAccess } from '../../staff/staff-access';
import { hexIdParam } from '../../validation/path-ids';
import { adminInvalidRequest } from './invalid-request';

export interface AdminStaffRouteOptions {
  /** The gateway's staff identities; undefined where it keeps none (route tests): 503. */
  staff: StaffAccess | undefined;
}

const staffNotFound = () => notFound('Staff member not found');

/**
 * Staff identities, as endpoints/admin-staff-users.ts defines them (who may call them: the admin router's
 * authentication and endpoints/admin-roles.ts). Generated passwords are answered once, never stored.
 */
export function adminStaffRouter({ staff }: AdminStaffRouteOptions): Router {
  const access = (): StaffAccess => {
    if (!staff) throw unavailable('This gateway keeps no staff identities');
    return staff;
  };

  async function create(req: Request, res: Response) {
    const { user, password } = await access().createUser(req.body as StaffCreateBody);
    res.locals.auditTargets = { staffId: user.staffId };
    res.status(201).set('Cache-Control', 'no-store').json(staffMemberWithPasswordToJson(user, password));
  }

  async function list(_req: Request, res: Response) {
    const query = res.locals.query as StaffListQuery;
    const page = await access().listUsers({ limit: query.limit ?? 50, cursor: query.cursor });
    res.set('Cache-Control', 'no-store').json(staffPageToJson(page));
  }

  async function getOne(req: Request, res: Response) {
    const user = await access().getUser(req.params.staffId as string);
    res.set('Cache-Control', 'no-store').json(staffMemberToJson(user));
  }

  async function update(req: Request, res: Response) {
    const user = await access().updateUser(req.params.staffId as string, req.body as StaffPatchBody);
    res.set('Cache-Control', 'no-store').json(staffMemberToJson(user));
  }

  async function resetPassword(req: Request, res: Response) {
    const { user, password } = await access().resetPassword(req.params.staffId as string);
    res.set('Cache-Control', 'no-store').json(staffMemberWithPasswordToJson(user, password));
  }

  const staffId = [hexIdParam('staffId', staffNotFound)];
  const router = routeTable(Router(), [
    { endpoint: adminCreateStaff, handler: create },
    { endpoint: adminListStaff, handler: list },
    { endpoint: adminGetStaff, before: staffId, handler: getOne },
    { endpoint: adminUpdateStaff, before: staffId, handler: update },
    { endpoint: adminResetStaffPassword, before: staffId, handler: resetPassword },
  ]);
  router.use(adminInvalidRequest);
  return router;
}
