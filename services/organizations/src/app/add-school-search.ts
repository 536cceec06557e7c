import { checkDomainSearch, checkNameSearch } from '../domain/add-school';
import { acceptanceFilter, acceptsCountry, type AcceptanceFilter } from '../domain/eligibility';
import { domainCandidates } from '../domain/hosts';
import type { Organization } from '../domain/organization';
import { invalidRequest } from '../domain/problems';
import { searchByDomain, searchByName, type SearchHit } from '../repository/organization-search.repository';
import type { AppContext } from './context';
import { requireProgram } from './program-rules';

/** The spec's limit: at most 25 organizations per add-school search. */
export const MAX_MATCHES = 25;

export interface AddSchoolSearchResult {
  /** tooManyOrganizationMatches when more than 25 matched; the lists then hold the best 25. */
  errorIds: string[];
  eligible: Organization[];
  ineligible: Organization[];
}

/** SearchAddSchoolByDomain: organizations of the country listing the host or a parent of it. */
export async function searchAddSchoolByDomain(
  ctx: AppContext,
  input: { programId: string; schoolDomain: string; schoolCountry: string },
): Promise<AddSchoolSearchResult> {
  const search = checkDomainSearch(input);
  const filter = await countryFilter(ctx, search.programId, search.country);
  const hits = await searchByDomain(ctx.db, {
    candidates: domainCandidates(search.host),
    country: search.country,
    filter,
    limit: MAX_MATCHES + 1,
  });
  return split(hits);
}

/** SearchAddSchoolByName: the ranked name search within the country, accepted or not. */
export async function searchAddSchoolByName(
  ctx: AppContext,
  input: { programId: string; schoolName: string; schoolCountry: string },
): Promise<AddSchoolSearchResult> {
  const search = checkNameSearch(input);
  const filter = await countryFilter(ctx, search.programId, search.country);
  const hits = await searchByName(ctx.db, {
    query: search.query,
    filter,
    acceptance: 'flag',
    country: search.country,
    limit: MAX_MATCHES + 1,
  });
  return split(hits);
}

/**
 * The program's acceptance filter, after checking that the program takes people of this country at all
 * (400 invalidRequest otherwise, as the spec lists "country not eligible").
 */
export async function countryFilter(
  ctx: AppContext,
  programId: string,
  country: string,
): Promise<AcceptanceFilter> {
  const filter = acceptanceFilter(await requireProgram(ctx, programId));
  if (!acceptsCountry(filter, country))
    throw invalidRequest(`schoolCountry: ${country} is not eligible for this program`);
  return filter;
}

/** One row past the limit tells "more than 25" without counting every match. */
function split(hits: readonly SearchHit[]): AddSchoolSearchResult {
  const kept = hits.slice(0, MAX_MATCHES);
  return {
    errorIds: hits.length > MAX_MATCHES ? ['tooManyOrganizationMatches'] : [],
    eligible: kept.filter((h) => h.accepted).map((h) => h.organization),
    ineligible: kept.filter((h) => !h.accepted).map((h) => h.organization),
  };
}
