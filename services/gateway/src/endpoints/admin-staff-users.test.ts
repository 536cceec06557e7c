import type { z } from 'zod';
import { zodSays } from '../../test/check-answers';
import { createDocumentValidator } from '../../test/document-validator';
import { readQuery } from '../../test/query-reader';
import { adminExportAudit, adminListAudit, AuditEntry, AuditPage } from './admin-audit';
import {
  adminListStaff,
  StaffCreateRequest,
  StaffMember,
  StaffMemberWithPassword,
  StaffPatchRequest,
  StaffRole,
} from './admin-staff-users';

// The staff and audit definitions are new (no hand-written schema before them): their zod checks must
// accept and refuse what the served document's JSON Schema (read by Ajv) does, in the same words.
const schemas: Record<string, z.ZodType> = {
  StaffCreateRequest,
  StaffPatchRequest,
  StaffRole,
  StaffMember,
  StaffMemberWithPassword,
  AuditEntry,
  AuditPage,
};
const { check } = createDocumentValidator();

const member = {
  staffId: 'ab'.repeat(12),
  email: 'jane@example.com',
  name: 'Jane',
  role: 'reviewer',
  disabled: false,
  disabledAt: null,
  lockedUntil: null,
  created: 1_700_000_000_000,
  updated: 1_700_000_000_000,
};
const entry = {
  id: '1',
  at: '2025-03-01T10:00:00.000Z',
  actorKind: 'staff',
  actorId: 'ab'.repeat(12),
  action: 'adminDecideReview',
  method: 'POST',
  route: '/rest/admin/v1/reviews/{reviewId}/decision',
  targets: { reviewId: '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b' },
  status: 200,
};

/** [schema, body, the one answer both give (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  ['StaffCreateRequest', { email: 'jane@example.com', name: 'Jane Doe', role: 'reviewer' }, undefined],
  ['StaffCreateRequest', { email: 'Jane.Doe+ops@Example.co.uk', name: '  Jane  ', role: 'admin' }, undefined],
  ['StaffCreateRequest', { email: 'jane@example.com', name: 'Jane' }, 'body.role is required'],
  ['StaffCreateRequest', { name: 'Jane', role: 'support' }, 'body.email is required'],
  [
    'StaffCreateRequest',
    { email: 'jane@example.com', name: 'Jane', role: 'owner' },
    'body.role must be one of reviewer, support, admin',
  ],
  [
    'StaffCreateRequest',
    { email: 'jane', name: 'Jane', role: 'reviewer' },
    'body.email must be an email address (name@example.com)',
  ],
  [
    'StaffCreateRequest',
    { email: 'jane@localhost', name: 'Jane', role: 'reviewer' },
    'body.email must be an email address (name@example.com)',
  ],
  [
    'StaffCreateRequest',
    { email: 'ja ne@example.com', name: 'Jane', role: 'reviewer' },
    'body.email must be an email address (name@example.com)',
  ],
  [
    'StaffCreateRequest',
    { email: 'jane@exa\u0000mple.com', name: 'Jane', role: 'reviewer' },
    'body.email must be an email address (name@example.com)',
  ],
  [
    'StaffCreateRequest',
    { email: `${'a'.repeat(250)}@x.io`, name: 'Jane', role: 'reviewer' },
    'body.email must NOT have more than 254 characters',
  ],
  [
    'StaffCreateRequest',
    { email: 'jane@example.com', name: ' ', role: 'reviewer' },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  [
    'StaffCreateRequest',
    { email: 'jane@example.com', name: 'Jane', role: 'reviewer', password: 'chosen' },
    'body has unexpected property password (allowed: email, name, role)',
  ],
  ['StaffPatchRequest', {}, undefined],
  ['StaffPatchRequest', { role: 'support', disabled: true }, undefined],
  ['StaffPatchRequest', { disabled: 'yes' }, 'body.disabled must be boolean'],
  ['StaffPatchRequest', { role: null }, 'body.role must be string'],
  ['StaffPatchRequest', { email: 'x@y.z' }, 'body has unexpected property email (allowed: role, disabled)'],
  ['StaffMember', member, undefined],
  ['StaffMember', { ...member, disabled: true, disabledAt: 1_700_000_000_001 }, undefined],
  ['StaffMemberWithPassword', { ...member, password: 'p'.repeat(24) }, undefined],
  ['StaffMemberWithPassword', member, 'body.password is required'],
  ['AuditEntry', entry, undefined],
  ['AuditEntry', { ...entry, actorKind: 'operator', actorId: null, targets: {} }, undefined],
  ['AuditEntry', { ...entry, actorKind: 'account' }, 'body.actorKind must be one of operator, staff'],
  ['AuditPage', { entries: [entry], nextCursor: null }, undefined],
];

describe('the staff and audit schemas', () => {
  it.each(cases)('%s: answers %j as the document says', (name, body, answer) => {
    expect(zodSays(schemas[name]!, body)).toBe(answer);
    expect(check(name, body)).toBe(answer);
  });
});

describe('the staff and audit queries', () => {
  it.each<[typeof adminListStaff | typeof adminListAudit | typeof adminExportAudit, string, unknown]>([
    [adminListStaff, '', {}],
    [adminListStaff, 'limit=10&cursor=abc', { limit: 10, cursor: 'abc' }],
    [adminListStaff, 'limit=101', 'query.limit must be an integer from 1 to 100'],
    [adminListStaff, 'role=admin', 'query has unexpected parameter role (allowed: limit, cursor)'],
    [
      adminListAudit,
      `actor=operator&action=adminDecideReview&from=2025-03-01T10:00:00Z&to=2025-03-02T00:00:00.5%2B02:00&limit=500`,
      {
        actor: 'operator',
        action: 'adminDecideReview',
        from: '2025-03-01T10:00:00Z',
        to: '2025-03-02T00:00:00.5+02:00',
        limit: 500,
      },
    ],
    [adminListAudit, `actor=${'ab'.repeat(12)}`, { actor: 'ab'.repeat(12) }],
    [
      adminListAudit,
      'actor=someone',
      'query.actor must be a staffId (24 lowercase hex characters) or operator',
    ],
    [
      adminListAudit,
      'action=admin-decide',
      'query.action must be an operationId: letters and digits, a letter first',
    ],
    [adminListAudit, 'from=yesterday', 'query.from must be an RFC 3339 date-time, e.g. 2025-03-01T10:00:00Z'],
    [adminListAudit, 'from=', 'query.from must not be empty (leave it out instead)'],
    [adminExportAudit, 'action=adminCreateStaff', { action: 'adminCreateStaff' }],
    [adminExportAudit, 'limit=5', 'query has unexpected parameter limit (allowed: actor, action, from, to)'],
  ])('%#: reads ?%s', (endpoint, query, expected) => {
    expect(readQuery(endpoint, Object.fromEntries(new URLSearchParams(query)))).toEqual(expected);
  });
});
