import { failedPrecondition, notFound } from '@eligo/runtime';
import { checkDeclineReason } from '../domain/add-school';
import { isId } from '../domain/ids';
import type { Organization } from '../domain/organization';
import { checkOrganizationInput, type OrganizationInput } from '../domain/organization-input';
import { Problems } from '../domain/problems';
import * as events from '../events/publish';
import type { Db } from '../repository/db';
import {
  decideAddSchoolRequest,
  lockAddSchoolRequest,
  type AddSchoolRecord,
} from '../repository/add-school-requests.repository';
import { insertOrganization } from '../repository/organizations.repository';
import { toView, type AddSchoolRequestView } from './add-school-requests';
import type { AppContext } from './context';

/** The pending request, locked until the decision commits, or the reason it cannot be decided. */
async function lockPending(trx: Db, requestId: string): Promise<AddSchoolRecord> {
  const record = isId(requestId) ? await lockAddSchoolRequest(trx, requestId) : undefined;
  if (!record) throw notFound('Add-school request not found');
  if (record.status !== 'PENDING')
    // 409, not 400: the request itself is fine, the resource moved on (a second reviewer lost the race).
    throw failedPrecondition(`Add-school request is already ${record.status.toLowerCase()}`, {
      reason: 'alreadyDecided',
    });
  return record;
}

/**
 * AcceptAddSchoolRequest: adds the school to the catalog (keyed add-school:<requestId>) and closes the
 * request, with OrganizationAdded and AddSchoolRequestAccepted, in one transaction. Staff choose the type;
 * name, country and domains default to what the requester typed.
 */
export async function acceptAddSchoolRequest(
  ctx: AppContext,
  requestId: string,
  input: Omit<OrganizationInput, 'externalKey'>,
): Promise<{ request: AddSchoolRequestView; organization: Organization }> {
  if (input.type.trim() === '') {
    const problems = new Problems('organization.');
    problems.add('type', 'is required');
    problems.throwIfAny();
  }
  return ctx.db.transaction(async (trx) => {
    const record = await lockPending(trx, requestId);
    const problems = new Problems('organization.');
    const draft = checkOrganizationInput(
      {
        externalKey: `add-school:${record.id}`,
        name: input.name.trim() === '' ? record.schoolName : input.name,
        type: input.type,
        country: input.country.trim() === '' ? record.schoolCountry : input.country,
        domains: input.domains.length === 0 ? [record.schoolDomain] : input.domains,
        city: input.city,
        state: input.state,
        loginUrl: input.loginUrl,
      },
      problems,
    );
    problems.throwIfAny();
    const organization = await insertOrganization(trx, draft);
    const decided = await decideAddSchoolRequest(trx, record.id, {
      status: 'ACCEPTED',
      organizationId: organization.id,
    });
    await events.organizationAdded(trx, ctx.schema, organization);
    await events.addSchoolRequestAccepted(trx, ctx.schema, {
      requestId: record.id,
      programId: record.programId,
      organizationId: organization.id,
    });
    return { request: toView(ctx, decided), organization };
  });
}

/** DeclineAddSchoolRequest: closes the request with staff's reason (kept for staff only). */
export async function declineAddSchoolRequest(
  ctx: AppContext,
  requestId: string,
  rawReason: string,
): Promise<AddSchoolRequestView> {
  const reason = checkDeclineReason(rawReason);
  return ctx.db.transaction(async (trx) => {
    const record = await lockPending(trx, requestId);
    const decided = await decideAddSchoolRequest(trx, record.id, { status: 'DECLINED', reason });
    await events.addSchoolRequestDeclined(trx, ctx.schema, {
      requestId: record.id,
      programId: record.programId,
    });
    return toView(ctx, decided);
  });
}
