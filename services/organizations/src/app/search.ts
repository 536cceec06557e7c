import { acceptanceFilter, kindFilter, type OrganizationKind } from '../domain/eligibility';
import { isId } from '../domain/ids';
import type { Organization } from '../domain/organization';
import { Problems } from '../domain/problems';
import { checkLimit, checkNameQuery, checkOptionalCountry } from '../domain/search';
import { searchByName } from '../repository/organization-search.repository';
import type { AppContext } from './context';
import { programNotFound, requireProgram } from './program-rules';

export interface ProgramSearchRequest {
  programId: string;
  name: string;
  country: string;
  limit: number;
}

/**
 * SearchProgramOrganizations (GET /program/{programId}/organization): the organizations the program accepts,
 * best match first. An unknown or malformed program is the spec's 404 SEM.
 */
export async function searchProgramOrganizations(
  ctx: AppContext,
  request: ProgramSearchRequest,
): Promise<Organization[]> {
  if (!isId(request.programId)) throw programNotFound();
  const problems = new Problems();
  const query = checkNameQuery(problems, 'name', request.name);
  const country = checkOptionalCountry(problems, 'country', request.country);
  const limit = checkLimit(problems, request.limit);
  problems.throwIfAny();
  const program = await requireProgram(ctx, request.programId);
  const hits = await searchByName(ctx.db, {
    query,
    filter: acceptanceFilter(program),
    acceptance: 'only',
    country,
    limit,
  });
  return hits.map((h) => h.organization);
}

/** SearchOrganizationsByKind: the deprecated /organization/{student,military,teacher} searches, no program. */
export async function searchOrganizationsByKind(
  ctx: AppContext,
  request: { kind: OrganizationKind | undefined; name: string; country: string; limit: number },
): Promise<Organization[]> {
  const problems = new Problems();
  if (request.kind === undefined) problems.add('kind', 'must be STUDENT, MILITARY or TEACHER');
  const query = checkNameQuery(problems, 'name', request.name);
  const country = checkOptionalCountry(problems, 'country', request.country);
  const limit = checkLimit(problems, request.limit);
  problems.throwIfAny();
  const hits = await searchByName(ctx.db, {
    query,
    filter: kindFilter(request.kind!),
    acceptance: 'only',
    country,
    limit,
  });
  return hits.map((h) => h.organization);
}
