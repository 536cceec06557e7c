import { organizationsOrganizationV1, organizationsV1 } from '@eligo/proto';
import type { z } from 'zod';
import type {
  AddSchoolAcceptRequest,
  AddSchoolRequestJson,
  OrganizationDetailJson,
} from '../endpoints/admin-organization-schemas';
import type { AddSchoolSearchResult, Organization } from '../endpoints/organization-schemas';
import { epochMs, present } from './program';

type Organization = organizationsOrganizationV1.Organization;
const { AddSchoolRequestStatus } = organizationsOrganizationV1;
const { OrganizationKind } = organizationsV1;

/** The spec's Organization as searches return it. */
export type OrganizationJson = z.input<typeof Organization>;

/** What an operator sees of an organization and of an add-school request (admin API). */
export type { AddSchoolRequestJson, OrganizationDetailJson };

export type AddSchoolSearchResultJson = z.input<typeof AddSchoolSearchResult>;

export type AddSchoolStatusName = 'PENDING' | 'ACCEPTED' | 'DECLINED';

export function organizationToJson(o: Organization): OrganizationJson {
  return { id: o.id, name: o.name, country: o.country, type: o.type };
}

export function organizationDetailToJson(o: Organization): OrganizationDetailJson {
  return {
    ...organizationToJson(o),
    domains: [...o.domains],
    // The catalog keeps "unknown" as an empty string; JSON says it with null.
    city: o.city || null,
    state: o.state || null,
    externalKey: o.externalKey,
    loginUrl: o.loginUrl || null,
  };
}

export function searchResultToJson(
  result: organizationsOrganizationV1.AddSchoolSearchResult | undefined,
): AddSchoolSearchResultJson {
  const r = present(result, 'result');
  return {
    errorIds: [...r.errorIds],
    eligible: r.eligible.map(organizationToJson),
    ineligible: r.ineligible.map(organizationToJson),
  };
}

const statusNames: Partial<Record<organizationsOrganizationV1.AddSchoolRequestStatus, AddSchoolStatusName>> =
  {
    [AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_PENDING]: 'PENDING',
    [AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_ACCEPTED]: 'ACCEPTED',
    [AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED]: 'DECLINED',
  };

const statusByName: Record<AddSchoolStatusName, organizationsOrganizationV1.AddSchoolRequestStatus> = {
  PENDING: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_PENDING,
  ACCEPTED: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_ACCEPTED,
  DECLINED: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED,
};

export const addSchoolStatusNames = Object.keys(statusByName) as AddSchoolStatusName[];

/** A status filter of the list; none means every status. */
export function addSchoolStatusToProto(
  name: AddSchoolStatusName | undefined,
): organizationsOrganizationV1.AddSchoolRequestStatus {
  return name === undefined
    ? AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_UNSPECIFIED
    : statusByName[name];
}

export function addSchoolRequestToJson(
  r: organizationsOrganizationV1.AddSchoolRequest,
): AddSchoolRequestJson {
  return {
    requestId: r.requestId,
    programId: r.programId,
    // Every stored request has a status; a new one in the contract reads as still open.
    status: statusNames[r.status] ?? 'PENDING',
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    schoolName: r.schoolName,
    schoolDomain: r.schoolDomain,
    schoolCountry: r.schoolCountry,
    created: epochMs(r.createdAt),
    decided: r.decidedAt ? epochMs(r.decidedAt) : null,
    organizationId: r.organizationId > 0 ? r.organizationId : null,
    declineReason: r.declineReason || null,
    trackingId: r.trackingId || null,
  };
}

/**
 * What staff accept a request as. Fields left out stay empty: the service fills name, country and domains
 * from the request's school; external_key is the service's own (add-school:<id>).
 */
export function acceptInputToProto(
  body: z.output<typeof AddSchoolAcceptRequest>,
): organizationsOrganizationV1.OrganizationInput {
  return organizationsOrganizationV1.OrganizationInput.fromPartial({
    type: body.type,
    name: body.name ?? '',
    country: body.country?.toUpperCase() ?? '',
    domains: body.domains ?? [],
    city: body.city ?? '',
    state: body.state ?? '',
  });
}

/** The deprecated per-audience searches, by the last segment of their path. */
export const organizationKinds = {
  student: OrganizationKind.ORGANIZATION_KIND_STUDENT,
  military: OrganizationKind.ORGANIZATION_KIND_MILITARY,
  teacher: OrganizationKind.ORGANIZATION_KIND_TEACHER,
} as const;

export type OrganizationKindName = keyof typeof organizationKinds;
