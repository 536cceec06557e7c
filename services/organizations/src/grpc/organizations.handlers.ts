import { organizationsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';
import { searchAddSchoolByDomain, searchAddSchoolByName } from '../app/add-school-search';
import { acceptAddSchoolRequest, declineAddSchoolRequest } from '../app/add-school-decisions';
import { listAddSchoolRequests, requestAddSchool } from '../app/add-school-requests';
import type { AppContext } from '../app/context';
import { importOrganizations } from '../app/import';
import { checkEligibility, getOrganization } from '../app/organizations';
import { searchOrganizationsByKind, searchProgramOrganizations } from '../app/search';
import {
  addSchoolRequestToProto,
  eligibilityToProto,
  kindFromProto,
  organizationInputFromProto,
  organizationToProto,
  statusFromProto,
} from './mapping';
import { ssoHandlers } from './sso.handlers';

/** The gRPC face of the organizations service: each handler converts, calls one use case, converts back. */
export function organizationsGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  const searchResult = (r: Awaited<ReturnType<typeof searchAddSchoolByName>>) => ({
    result: {
      errorIds: r.errorIds,
      eligible: r.eligible.map(organizationToProto),
      ineligible: r.ineligible.map(organizationToProto),
    },
  });
  return bindService(
    organizationsV1.OrganizationsServiceService,
    {
      getInfo: async () => getInfoResponse(deps),

      searchProgramOrganizations: async (req) => ({
        organizations: (await searchProgramOrganizations(app, req)).map(organizationToProto),
      }),
      searchOrganizationsByKind: async (req) => ({
        organizations: (await searchOrganizationsByKind(app, { ...req, kind: kindFromProto(req.kind) })).map(
          organizationToProto,
        ),
      }),
      searchAddSchoolByDomain: async (req) => searchResult(await searchAddSchoolByDomain(app, req)),
      searchAddSchoolByName: async (req) => searchResult(await searchAddSchoolByName(app, req)),

      requestAddSchool: async (req) => ({ requestId: await requestAddSchool(app, req) }),
      listAddSchoolRequests: async (req) => {
        const page = await listAddSchoolRequests(app, { ...req, status: statusFromProto(req.status) });
        return { requests: page.requests.map(addSchoolRequestToProto), nextPageToken: page.nextPageToken };
      },
      acceptAddSchoolRequest: async (req) => {
        const accepted = await acceptAddSchoolRequest(
          app,
          req.requestId,
          organizationInputFromProto(req.organization),
        );
        return {
          request: addSchoolRequestToProto(accepted.request),
          organization: organizationToProto(accepted.organization),
        };
      },
      declineAddSchoolRequest: async (req) => ({
        request: addSchoolRequestToProto(await declineAddSchoolRequest(app, req.requestId, req.reason)),
      }),

      importOrganizations: async (req) =>
        importOrganizations(
          app,
          req.rows.map((row) => ({
            line: row.line,
            organization: row.organization && organizationInputFromProto(row.organization),
          })),
        ),
      getOrganization: async (req) => ({
        organization: organizationToProto(await getOrganization(app, req.organizationId)),
      }),
      checkEligibility: async (req) => {
        const checked = await checkEligibility(app, req);
        return {
          eligibility: eligibilityToProto[checked.eligibility],
          organization: checked.organization && organizationToProto(checked.organization),
        };
      },
      ...ssoHandlers(app),
    },
    deps.logger,
  );
}
