import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { staffRoles } from '../auth/principal';
import {
  CONTROL_CHARACTER_CLASS,
  described,
  TRIMMED_SPACE_CLASS,
  trimmedName,
} from '../openapi/schemas/text';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er, hexIdParameter, sem, withBody } from './common';
import { defineEndpoint, type BodyOf, type QueryOf } from './define';
import { integer } from './query';
import { fromStringSchema } from './schemas';
import { orNull } from './schemas-nullable';
import { epochMs } from './schemas-numbers';

/**
 * Staff identities of the admin API under /rest/admin/v1/staff, described once (docs/operations.md, "Staff
 * identities"): named members with a role, who sign in to the console (routes/console-session.ts) instead of
 * sharing the operator token. The routes are routes/admin/staff.ts, the mapping mapping/staff.ts; which role
 * may call what is endpoints/admin-roles.ts.
 */

export const StaffRole = z.enum(staffRoles).meta({
  id: 'StaffRole',
  description:
    'reviewer: document reviews and reading verifications; support: also add-school requests, webhook ' +
    'deliveries and send-link messages; admin: the whole admin API, staff and the audit log included.',
});

const NOT_IN_EMAIL = `@${TRIMMED_SPACE_CLASS}${CONTROL_CHARACTER_CLASS}`;
const EMAIL = described(
  `^[^${NOT_IN_EMAIL}]+@[^${NOT_IN_EMAIL}.]+(\\.[^${NOT_IN_EMAIL}.]+)+$`,
  'must be an email address (name@example.com)',
);

export const StaffCreateRequest = z
  .strictObject({
    email: fromStringSchema({ type: 'string', pattern: EMAIL, maxLength: 254 }).meta({
      description:
        'The member’s email, which they sign in with: unique, compared in lower case; stored encrypted ' +
        '(at most 254 characters).',
    }),
    name: fromStringSchema(trimmedName(200)).meta({
      description: 'Trimmed; 1 to 200 characters, no control characters. Stored encrypted.',
    }),
    role: StaffRole,
  })
  .meta({ id: 'StaffCreateRequest' });

export const StaffPatchRequest = z
  .strictObject({
    role: StaffRole.optional(),
    disabled: z.boolean().optional().meta({
      description:
        'true: the member can no longer sign in and every session of theirs ends at once; false: enabled again.',
    }),
  })
  .meta({ id: 'StaffPatchRequest', description: 'The fields to change; left out, a field stays as it is.' });

export const StaffMember = z
  .object({
    staffId: z.string().regex(new RegExp(ID_PATTERN)),
    email: z.string(),
    name: z.string(),
    role: StaffRole,
    disabled: z.boolean(),
    disabledAt: orNull(epochMs('When the member was disabled; null while enabled.')),
    lockedUntil: orNull(
      epochMs(
        'Sign-ins are refused until then after too many wrong passwords in a row; null when not locked.',
      ),
    ),
    created: epochMs(),
    updated: epochMs(),
  })
  .meta({
    id: 'StaffMember',
    description: 'A staff member of the admin API. Email and name are personal information.',
  });

export const StaffMemberWithPassword = StaffMember.extend({
  password: z.string().meta({
    description:
      'A generated password of 24 characters, shown only in this reply (only its scrypt hash is stored): ' +
      'hand it to the member over a channel of its own.',
  }),
}).meta({
  id: 'StaffMemberWithPassword',
  description: 'A staff member and their new password, shown once.',
});

export const StaffPage = z
  .object({
    staff: z.array(StaffMember),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as cursor for the next page; null on the last page.' }),
  })
  .meta({ id: 'StaffPage' });

const staffParams = z.object({ staffId: hexIdParameter('A staff member') });
const noStaff = sem('No such staff member');
const noStore = { 'Cache-Control': { schema: z.literal('no-store') } };

export const adminCreateStaff = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/staff',
  operationId: 'adminCreateStaff',
  summary: 'Creates a staff member with a generated password',
  description:
    'The password is in this reply only (`Cache-Control: no-store`); the member signs in to the console ' +
    'with the email and it (`POST /console/session`).',
  body: StaffCreateRequest,
  responses: {
    '201': { description: 'The member and their password', body: StaffMemberWithPassword, headers: noStore },
    ...withBody,
    ...unauthorized,
    '409': sem('A staff member with this email exists'),
  },
});

export const adminListStaff = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/staff',
  operationId: 'adminListStaff',
  summary: 'Staff members, newest first, one page at a time',
  strictQuery: true,
  query: z.object({
    limit: integer({ description: 'Page size (default 50)', min: 1, max: 100, fallback: 50 }).optional(),
    cursor: pageCursor(
      'nextCursor of the previous page, as it came (opaque); left out for the first page',
    ).optional(),
  }),
  responses: {
    '200': { description: 'One page of staff members', body: StaffPage, headers: noStore },
    '400': er(
      'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
        'a value that does not match its schema, or a cursor this list did not give (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export const adminGetStaff = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/staff/{staffId}',
  operationId: 'adminGetStaff',
  summary: 'A staff member',
  params: staffParams,
  responses: {
    '200': { description: 'The member', body: StaffMember, headers: noStore },
    ...unauthorized,
    '404': noStaff,
  },
});

export const adminUpdateStaff = defineEndpoint({
  ...adminOperation,
  method: 'patch',
  path: '/staff/{staffId}',
  operationId: 'adminUpdateStaff',
  summary: 'Changes a staff member’s role, or disables or enables them',
  description:
    'A new role applies to the member’s next request. Disabling ends every session of theirs at once.',
  params: staffParams,
  body: StaffPatchRequest,
  responses: {
    '200': { description: 'The member as changed', body: StaffMember, headers: noStore },
    ...withBody,
    ...unauthorized,
    '404': noStaff,
  },
});

export const adminResetStaffPassword = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/staff/{staffId}/password',
  operationId: 'adminResetStaffPassword',
  summary: 'Gives a staff member a new generated password',
  description:
    'The old password stops working, every session of the member ends, and a lockout is lifted. The new ' +
    'password is in this reply only (`Cache-Control: no-store`).',
  params: staffParams,
  responses: {
    '200': {
      description: 'The member and their new password',
      body: StaffMemberWithPassword,
      headers: noStore,
    },
    ...unauthorized,
    '404': noStaff,
  },
});

export type StaffCreateBody = BodyOf<typeof adminCreateStaff>;
export type StaffPatchBody = BodyOf<typeof adminUpdateStaff>;
export type StaffListQuery = QueryOf<typeof adminListStaff>;
/** The JSON the mapping writes (mapping/staff.ts). */
export type StaffMemberJson = z.input<typeof StaffMember>;
export type StaffMemberWithPasswordJson = z.input<typeof StaffMemberWithPassword>;
export type StaffPageJson = z.input<typeof StaffPage>;

export const adminStaffUserEndpoints = [
  adminCreateStaff,
  adminListStaff,
  adminGetStaff,
  adminUpdateStaff,
  adminResetStaffPassword,
] as const;
