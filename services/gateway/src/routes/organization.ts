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
import { optionalCountry, optionalInt, requiredText } from '../validation/query-params';
import type { RequestValidator } from '../validation/request-validator';

export interface OrganizationRouteOptions {
  organizations: OrganizationsClient;
  validator: RequestValidator;
  publicBaseUrl: string;
}

/** RFC 9745: the per-audience searches are deprecated since 2026-01-01T00:00:00Z. */
export const DEPRECATED_SINCE = '@1767225600';

/** The add-school bodies; each schema guarantees the fields its route reads. */
interface AddSchoolBody {
  programId: string;
  firstName: string;
  lastName: string;
  email: string;
  schoolName: string;
  schoolDomain: string;
  schoolCountry: string;
  trackingId?: string;
}

/** ?name=&country=&limit= of the organization searches: name required, country in any case, limit 1-100. */
function searchQuery(req: Request) {
  return {
    // The service counts the 200 characters once trimmed; this bound only keeps a query from being huge.
    name: requiredText(req.query, 'name', 1000),
    country: optionalCountry(req.query, 'country') ?? '',
    // 0 lets the service apply its default (25).
    limit: optionalInt(req.query, 'limit', 1, 100) ?? 0,
  };
}

/**
 * Organization search and add-school requests (REST v2, no token: the verification form calls them). The
 * organizations service applies the program's rules; these routes only convert.
 */
export function organizationRouter({
  organizations,
  validator,
  publicBaseUrl,
}: OrganizationRouteOptions): Router {
  const router = Router();

  router.get(
    '/program/:programId/organization',
    hexIdParam('programId', programNotFoundSem),
    async (req, res) => {
      // The spec answers this search's errors with SEM bodies (an unknown program: 404 SEM), errorIds or not.
      const reply = await organizations
        .searchProgramOrganizations({ programId: req.params.programId as string, ...searchQuery(req) })
        .catch(semBody);
      res.json(reply.organizations.map(organizationToJson));
    },
  );

  // Set before anything can fail, so that errors carry the deprecation too.
  const deprecated = (_req: Request, res: Response, next: NextFunction) => {
    res.set('Deprecation', DEPRECATED_SINCE);
    res.set('Link', `<${publicBaseUrl}/rest/v2/openapi.json>; rel="deprecation"; type="application/json"`);
    next();
  };
  for (const kind of Object.keys(organizationKinds) as OrganizationKindName[]) {
    router.get(`/organization/${kind}`, deprecated, async (req, res) => {
      const reply = await organizations.searchOrganizationsByKind({
        kind: organizationKinds[kind],
        ...searchQuery(req),
      });
      res.json(reply.organizations.map(organizationToJson));
    });
  }

  router.post(
    '/organization/addSchool/search/domain',
    validator.body('AddSchoolDomainSearchRequest'),
    async (req, res) => {
      const { programId, schoolDomain, schoolCountry } = req.body as AddSchoolBody;
      const { result } = await organizations.searchAddSchoolByDomain({
        programId,
        schoolDomain,
        schoolCountry,
      });
      res.json(searchResultToJson(result));
    },
  );

  router.post(
    '/organization/addSchool/search/name',
    validator.body('AddSchoolNameSearchRequest'),
    async (req, res) => {
      const { programId, schoolName, schoolCountry } = req.body as AddSchoolBody;
      const { result } = await organizations.searchAddSchoolByName({ programId, schoolName, schoolCountry });
      res.json(searchResultToJson(result));
    },
  );

  router.post('/organization/addSchool', validator.body('AddSchoolRequest'), async (req, res) => {
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
  });

  return router;
}
