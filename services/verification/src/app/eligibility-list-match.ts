import { subjectIdentifiers } from '../domain/eligibility-identifiers';
import type { Subject } from '../domain/subject';
import { activeListContains } from '../repository/eligibility-lists.repository';
import type { AppContext } from './context';

/** Subjects of the member and employee forms may carry the person's id in the customer's systems. */
type WithListIds = Subject & { memberId?: string | undefined; employeeId?: string | undefined };

/**
 * The LIST instant-match source's check: whether the subject's email, member or employee id, or name +
 * birth date is in the program's active eligibility list. The identifiers are normalised and keyed as the
 * import keyed the rows, then looked up in one indexed query; false when the program has no list.
 */
export async function matchEligibilityList(
  ctx: AppContext,
  programId: string,
  subject: Subject,
): Promise<boolean> {
  const { email, memberId, employeeId, firstName, lastName, birthDate } = subject as WithListIds;
  const identifiers = subjectIdentifiers({ email, memberId, employeeId, firstName, lastName, birthDate });
  return activeListContains(
    ctx.db,
    programId,
    identifiers.map(({ kind, value }) => ({ kind, hmac: ctx.eligibilityList.lookupHash(value) })),
  );
}
