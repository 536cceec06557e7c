import type { organizationsSsoV1, organizationsV1 } from '@eligo/proto';
import type { GrpcClient, UnaryCallOptions } from '@eligo/runtime';

type Service = typeof organizationsV1.OrganizationsServiceService;

/**
 * The organizations RPCs the gateway calls, one typed method each, through the runtime client (deadline,
 * UNAVAILABLE retries, circuit breaker). CheckEligibility is left out on purpose: the verification service
 * asks it, no REST request may.
 */
export interface OrganizationsClient {
  searchProgramOrganizations(
    req: organizationsV1.SearchProgramOrganizationsRequest,
  ): Promise<organizationsV1.SearchProgramOrganizationsResponse>;
  searchOrganizationsByKind(
    req: organizationsV1.SearchOrganizationsByKindRequest,
  ): Promise<organizationsV1.SearchOrganizationsByKindResponse>;
  searchAddSchoolByDomain(
    req: organizationsV1.SearchAddSchoolByDomainRequest,
  ): Promise<organizationsV1.SearchAddSchoolByDomainResponse>;
  searchAddSchoolByName(
    req: organizationsV1.SearchAddSchoolByNameRequest,
  ): Promise<organizationsV1.SearchAddSchoolByNameResponse>;
  requestAddSchool(
    req: organizationsV1.RequestAddSchoolRequest,
  ): Promise<organizationsV1.RequestAddSchoolResponse>;
  listAddSchoolRequests(
    req: organizationsV1.ListAddSchoolRequestsRequest,
  ): Promise<organizationsV1.ListAddSchoolRequestsResponse>;
  acceptAddSchoolRequest(
    req: organizationsV1.AcceptAddSchoolRequestRequest,
  ): Promise<organizationsV1.AcceptAddSchoolRequestResponse>;
  declineAddSchoolRequest(
    req: organizationsV1.DeclineAddSchoolRequestRequest,
  ): Promise<organizationsV1.DeclineAddSchoolRequestResponse>;
  /** `options` lets the import give a batch the longer deadline it needs. */
  importOrganizations(
    req: organizationsV1.ImportOrganizationsRequest,
    options?: UnaryCallOptions,
  ): Promise<organizationsV1.ImportOrganizationsResponse>;
  getOrganization(
    req: organizationsV1.GetOrganizationRequest,
  ): Promise<organizationsV1.GetOrganizationResponse>;
  // An organization's single sign-on (admin API); the sign-on RPCs are the verification service's to call.
  setOrganizationSso(
    req: organizationsSsoV1.SetOrganizationSsoRequest,
  ): Promise<organizationsSsoV1.SetOrganizationSsoResponse>;
  getOrganizationSso(
    req: organizationsSsoV1.GetOrganizationSsoRequest,
  ): Promise<organizationsSsoV1.GetOrganizationSsoResponse>;
  deleteOrganizationSso(
    req: organizationsSsoV1.DeleteOrganizationSsoRequest,
  ): Promise<organizationsSsoV1.DeleteOrganizationSsoResponse>;
}

/** Wraps the module's one organizations channel (clients.ts); built once in createModule. */
export function createOrganizationsClient(client: GrpcClient<Service>): OrganizationsClient {
  return {
    searchProgramOrganizations: (req) => client.unary('searchProgramOrganizations', req),
    searchOrganizationsByKind: (req) => client.unary('searchOrganizationsByKind', req),
    searchAddSchoolByDomain: (req) => client.unary('searchAddSchoolByDomain', req),
    searchAddSchoolByName: (req) => client.unary('searchAddSchoolByName', req),
    requestAddSchool: (req) => client.unary('requestAddSchool', req),
    listAddSchoolRequests: (req) => client.unary('listAddSchoolRequests', req),
    acceptAddSchoolRequest: (req) => client.unary('acceptAddSchoolRequest', req),
    declineAddSchoolRequest: (req) => client.unary('declineAddSchoolRequest', req),
    importOrganizations: (req, options) => client.unary('importOrganizations', req, options),
    getOrganization: (req) => client.unary('getOrganization', req),
    setOrganizationSso: (req) => client.unary('setOrganizationSso', req),
    getOrganizationSso: (req) => client.unary('getOrganizationSso', req),
    deleteOrganizationSso: (req) => client.unary('deleteOrganizationSso', req),
  };
}
