import type { AuditEntryJson, AuditPageJson } from '../endpoints/admin-audit';
import type {
  StaffMemberJson,
  StaffMemberWithPasswordJson,
  StaffPageJson,
} from '../endpoints/admin-staff-users';
import type { AuditEntry, AuditPage, StaffPage, StaffUser } from '../staff/staff-access';

/** Staff members and audit entries as the admin API answers them (endpoints/admin-staff-users.ts, admin-audit.ts). */
export function staffMemberToJson(user: StaffUser): StaffMemberJson {
  return {
    staffId: user.staffId,
    email: user.email,
    name: user.name,
    role: user.role,
    disabled: user.disabledAt !== null,
    disabledAt: user.disabledAt?.getTime() ?? null,
    lockedUntil: user.lockedUntil?.getTime() ?? null,
    created: user.created.getTime(),
    updated: user.updated.getTime(),
  };
}

export function staffMemberWithPasswordToJson(
  user: StaffUser,
  password: string,
): StaffMemberWithPasswordJson {
  return { ...staffMemberToJson(user), password };
}

export function staffPageToJson(page: StaffPage): StaffPageJson {
  return { staff: page.staff.map(staffMemberToJson), nextCursor: page.nextCursor };
}

export function auditEntryToJson(entry: AuditEntry): AuditEntryJson {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actorKind: entry.actorKind,
    actorId: entry.actorId,
    action: entry.action,
    method: entry.method,
    route: entry.route,
    targets: entry.targets,
    status: entry.status,
  };
}

export function auditPageToJson(page: AuditPage): AuditPageJson {
  return { entries: page.entries.map(auditEntryToJson), nextCursor: page.nextCursor };
}
