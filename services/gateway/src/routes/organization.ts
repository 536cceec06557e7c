import { Router, type NextFunction, type Request, type Response } from 'express';
import type { OrganizationsClient } from '../clients/organizations.client';
import { semBody } from '../errors';
import {
  organizationKinds,
  organizationToJson,
  searchResultToJson,
  type OrganizationKindName,
} from '../mapping/organization';
import { hexIdParam, programNotFoundSem } from '../validation/path-ids';
import { routeTable } from '../endpoints/route-table';
import {
  DEPRECATED_SINCE,
  requestAddSchool,
  searchAddSchoolByDomain,
  searchAddSchoolByName,
  searchOrganizationsMilitary,
  searchOrganizationsStudent,
  searchOrganizationsTeacher,
  searchProgramOrganizations,
  type AddSchoolBody,
  type AddSchoolDomainSearchBody,
  type AddSchoolNameSearchBody,
  type SearchQuery,
} from '../endpoints/organization';

export interface OrganizationRouteOptions {
  organizations: OrganizationsClient;
  publicBaseUrl: string;
}

/** The checked ?name=&country=&limit= as the searches send it: "" for any country, 0 for the default limit. */
function searchQuery(res: Response) {
  const { name, country, limit } = res.locals.query as SearchQuery;
  // 0 lets the service apply its default (25).
  return { name, country: country ?? '', limit: limit ?? 0 };
}

/**
 * Organization search and add-school requests (REST v2, no token: the verification form calls them), as
 * endpoints/organization.ts defines them. The organizations service applies the program's rules; these
 * routes only convert.
 */
export function organizationRouter({ organizations, publicBaseUrl }: OrganizationRouteOptions): Router {
  async function searchProgram(req: Request, res: Response) {
    // The spec answers this search's errors with SEM bodies (an unknown program: 404 SEM), errorIds or not.
    const reply = await organizations
      .searchProgramOrganizations({ programId: req.params.programId as string, ...searchQuery(res) })
      .catch(semBody);
    res.json(reply.organizations.map(organizationToJson));
  }

  const searchOfKind = (kind: OrganizationKindName) =>
    async function searchKind(_req: Request, res: Response) {
      const reply = await organizations.searchOrganizationsByKind({
        kind: organizationKinds[kind],
        ...searchQuery(res),
      });
      res.json(reply.organizations.map(organizationToJson));
    };

  // Set before anything can fail, so that errors carry the deprecation too.
  function deprecated(_req: Request, res: Response, next: NextFunction) {
    res.set('Deprecation', DEPRECATED_SINCE);
    res.set('Link', `<${publicBaseUrl}/rest/v2/openapi.json>; rel="deprecation"; type="application/json"`);
    next();
  }

  async function searchByDomain(req: Request, res: Response) {
    const { programId, schoolDomain, schoolCountry } = req.body as AddSchoolDomainSearchBody;
    const { result } = await organizations.searchAddSchoolByDomain({
      programId,
      schoolDomain,
      schoolCountry,
    });
    res.json(searchResultToJson(result));
  }

  async function searchByName(req: Request, res: Response) {
    const { programId, schoolName, schoolCountry } = req.body as AddSchoolNameSearchBody;
    const { result } = await organizations.searchAddSchoolByName({ programId, schoolName, schoolCountry });
    res.json(searchResultToJson(result));
  }

  async function addSchool(req: Request, res: Response) {
    const body = req.body as AddSchoolBody;
    await organizations.requestAddSchool({
      programId: body.programId,
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      schoolName: body.schoolName,
      schoolDomain: body.schoolDomain,
      schoolCountry: body.schoolCountry,
      trackingId: body.trackingId ?? '',
    });
    res.status(204).end();
  }

  return routeTable(Router(), [
    {
      endpoint: searchProgramOrganizations,
      before: [hexIdParam('programId', programNotFoundSem)],
      handler: searchProgram,
    },
    { endpoint: searchOrganizationsStudent, before: [deprecated], handler: searchOfKind('student') },
    { endpoint: searchOrganizationsMilitary, before: [deprecated], handler: searchOfKind('military') },
    { endpoint: searchOrganizationsTeacher, before: [deprecated], handler: searchOfKind('teacher') },
    { endpoint: searchAddSchoolByDomain, handler: searchByDomain },
    { endpoint: searchAddSchoolByName, handler: searchByName },
    { endpoint: requestAddSchool, handler: addSchool },
  ]);
}
