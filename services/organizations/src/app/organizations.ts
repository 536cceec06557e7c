import { notFound } from '@eligo/runtime';
import { acceptanceFilter, accepts } from '../domain/eligibility';
import { fold } from '../domain/fold';
import { isId } from '../domain/ids';
import type { Organization } from '../domain/organization';
import { invalidRequest } from '../domain/problems';
import { findByFoldedName, findOrganization } from '../repository/organizations.repository';
import type { AppContext } from './context';
import { programNotFound, requireProgram } from './program-rules';

const validOrganizationId = (id: number) => Number.isSafeInteger(id) && id > 0;

/** GetOrganization: NOT_FOUND noOrganization for an unknown id. */
export async function getOrganization(ctx: AppContext, id: number): Promise<Organization> {
  const organization = validOrganizationId(id) ? await findOrganization(ctx.db, id) : undefined;
  if (!organization) throw notFound('Organization not found', { errorIds: ['noOrganization'] });
  return organization;
}

export type Eligibility = 'ELIGIBLE' | 'INELIGIBLE' | 'UNKNOWN';

/**
 * CheckEligibility (the verification service, for a submitted organization): by id, else by name matched
 * exactly after folding. A name shared by several organizations cannot tell which one is meant: UNKNOWN,
 * like a name or id the catalog does not hold.
 */
export async function checkEligibility(
  ctx: AppContext,
  request: { programId: string; organizationId: number; organizationName: string },
): Promise<{ eligibility: Eligibility; organization: Organization | undefined }> {
  if (!isId(request.programId)) throw programNotFound();
  const byName = fold(request.organizationName);
  if (request.organizationId <= 0 && byName === '')
    throw invalidRequest('organization: give organizationId or organizationName');
  const program = await requireProgram(ctx, request.programId);
  let organization: Organization | undefined;
  if (request.organizationId > 0) {
    organization = validOrganizationId(request.organizationId)
      ? await findOrganization(ctx.db, request.organizationId)
      : undefined;
  } else {
    const found = await findByFoldedName(ctx.db, byName, 2);
    organization = found.length === 1 ? found[0] : undefined;
  }
  if (!organization) return { eligibility: 'UNKNOWN', organization: undefined };
  return {
    eligibility: accepts(acceptanceFilter(program), organization) ? 'ELIGIBLE' : 'INELIGIBLE',
    organization,
  };
}
