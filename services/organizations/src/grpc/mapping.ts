import { organizationsOrganizationV1, organizationsV1 } from '@eligo/proto';
import type { AddSchoolRequestView } from '../app/add-school-requests';
import type { Eligibility } from '../app/organizations';
import type { OrganizationKind } from '../domain/eligibility';
import type { Organization } from '../domain/organization';
import type { OrganizationInput } from '../domain/organization-input';
import type { AddSchoolStatus } from '../repository/add-school-requests.repository';

const { AddSchoolRequestStatus } = organizationsOrganizationV1;
const { OrganizationKind: Kind, Eligibility: EligibilityProto } = organizationsV1;

export function organizationToProto(o: Organization): organizationsOrganizationV1.Organization {
  return {
    id: o.id,
    name: o.name,
    type: o.type,
    country: o.country,
    domains: [...o.domains],
    city: o.city,
    state: o.state,
    externalKey: o.externalKey,
    loginUrl: o.loginUrl,
  };
}

export function organizationInputFromProto(
  input: organizationsOrganizationV1.OrganizationInput | undefined,
): OrganizationInput {
  return {
    externalKey: input?.externalKey ?? '',
    name: input?.name ?? '',
    type: input?.type ?? '',
    country: input?.country ?? '',
    domains: input?.domains ?? [],
    city: input?.city ?? '',
    state: input?.state ?? '',
    loginUrl: input?.loginUrl ?? '',
  };
}

const STATUS_TO_PROTO: Record<AddSchoolStatus, organizationsOrganizationV1.AddSchoolRequestStatus> = {
  PENDING: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_PENDING,
  ACCEPTED: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_ACCEPTED,
  DECLINED: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED,
};

/** null = every status (UNSPECIFIED); undefined = a value this build does not know. */
export function statusFromProto(
  status: organizationsOrganizationV1.AddSchoolRequestStatus,
): AddSchoolStatus | null | undefined {
  if (status === AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_UNSPECIFIED) return null;
  return (Object.keys(STATUS_TO_PROTO) as AddSchoolStatus[]).find((s) => STATUS_TO_PROTO[s] === status);
}

export function addSchoolRequestToProto(
  r: AddSchoolRequestView,
): organizationsOrganizationV1.AddSchoolRequest {
  return {
    requestId: r.requestId,
    programId: r.programId,
    status: STATUS_TO_PROTO[r.status],
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    schoolName: r.schoolName,
    schoolDomain: r.schoolDomain,
    schoolCountry: r.schoolCountry,
    createdAt: r.createdAt,
    decidedAt: r.decidedAt ?? undefined,
    organizationId: r.organizationId ?? 0,
    declineReason: r.declineReason ?? '',
    trackingId: r.trackingId ?? '',
  };
}

export function kindFromProto(kind: organizationsV1.OrganizationKind): OrganizationKind | undefined {
  switch (kind) {
    case Kind.ORGANIZATION_KIND_STUDENT:
      return 'STUDENT';
    case Kind.ORGANIZATION_KIND_TEACHER:
      return 'TEACHER';
    case Kind.ORGANIZATION_KIND_MILITARY:
      return 'MILITARY';
    default:
      return undefined;
  }
}

export const eligibilityToProto: Record<Eligibility, organizationsV1.Eligibility> = {
  ELIGIBLE: EligibilityProto.ELIGIBILITY_ELIGIBLE,
  INELIGIBLE: EligibilityProto.ELIGIBILITY_INELIGIBLE,
  UNKNOWN: EligibilityProto.ELIGIBILITY_UNKNOWN,
};
