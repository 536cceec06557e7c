import { staffRoles, type StaffRole } from '../auth/principal';

/**
 * Which staff roles may call each operation of the admin API, by operationId (docs/operations.md, "Roles").
 * The operator token may call every one. `admin` may call every one too, but is listed all the same: the
 * table names every admin operation of the served document (endpoints/admin-roles.test.ts), so that a new
 * endpoint cannot be forgotten; an operation missing here is refused to every role but `admin`
 * (auth/staff-guard.ts).
 */
const reviewer: readonly StaffRole[] = ['reviewer', 'support', 'admin'];
const support: readonly StaffRole[] = ['support', 'admin'];
const admin: readonly StaffRole[] = ['admin'];

export const operationRoles: Readonly<Record<string, readonly StaffRole[]>> = {
  // Document reviews: the queue, a review with its file links, the decision.
  adminListReviews: reviewer,
  adminGetReview: reviewer,
  adminDecideReview: reviewer,
  // The review queue's claims (so that two reviewers never decide the same review) and a review's files.
  adminClaimReview: reviewer,
  adminReleaseReview: reviewer,
  adminGetReviewFile: reviewer,
  // A verification whole (a reviewer reads the one a review belongs to), and the search that finds one.
  adminGetVerification: reviewer,
  adminSearchVerifications: reviewer,
  // Ending a verification now (support answers a person's or a client's request).
  adminExpireVerification: support,
  // Add-school requests and the organization they name.
  adminListAddSchoolRequests: support,
  adminAcceptAddSchoolRequest: support,
  adminDeclineAddSchoolRequest: support,
  adminGetOrganization: support,
  // Webhook deliveries and send-link messages.
  adminListWebhookDeliveries: support,
  adminResendWebhookDelivery: support,
  adminListMessages: support,
  // The staff console's reads of accounts and programs (no credential among them).
  adminListAccounts: support,
  adminGetAccount: support,
  adminListPrograms: support,
  adminGetRewardCodePoolLevel: support,
  // The rest is the operator's work: accounts, tokens, programs, the catalog's import, parked events, the PII
  // access log, staff identities and the audit log.
  adminCreateAccount: admin,
  adminCreateAccessToken: admin,
  adminRevokeAccessToken: admin,
  adminCreateProgram: admin,
  adminGetProgram: admin,
  adminUpdateProgram: admin,
  adminAddRewardCodes: admin,
  adminListAccessTokens: admin,
  adminRotateWebhookSecret: admin,
  adminImportOrganizations: admin,
  // A program's customer eligibility list (people's identifiers, even keyed): the operator's work.
  adminPutEligibilityList: admin,
  adminGetEligibilityList: admin,
  adminDeleteEligibilityList: admin,
  // An organization's single sign-on (its OpenID client, secret included): the operator's work.
  adminPutOrganizationSso: admin,
  adminGetOrganizationSso: admin,
  adminDeleteOrganizationSso: admin,
  adminListParkedEvents: admin,
  adminGetParkedEvent: admin,
  adminReplayParkedEvent: admin,
  adminListPiiAccess: admin,
  adminCreateStaff: admin,
  adminListStaff: admin,
  adminGetStaff: admin,
  adminUpdateStaff: admin,
  adminResetStaffPassword: admin,
  adminListAudit: admin,
  adminExportAudit: admin,
};

/** The roles that may call an operation; `admin` alone for one the table does not name. */
export function rolesAllowed(operationId: string): readonly StaffRole[] {
  return Object.prototype.hasOwnProperty.call(operationRoles, operationId)
    ? operationRoles[operationId]!
    : admin;
}

/** The matrix as docs/operations.md shows it: each role, and the operations it may call. */
export function roleMatrix(): Record<StaffRole, string[]> {
  return Object.fromEntries(
    staffRoles.map((role) => [
      role,
      Object.entries(operationRoles)
        .filter(([, roles]) => roles.includes(role))
        .map(([operationId]) => operationId),
    ]),
  ) as Record<StaffRole, string[]>;
}
