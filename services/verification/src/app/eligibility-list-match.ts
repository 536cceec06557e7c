import { subjectIdentifiers } from '../domain/eligibility-identifiers';
import type { Subject } from '../domain/subject';
import { activeListContains } from '../repository/eligibility-lists.repository';
import type { AppContext } from './context';

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
  const { email, memberId, employeeId, firstName, lastName, birthDate } = subject;
  const identifiers = subjectIdentifiers({ email, memberId, employeeId, firstName, lastName, birthDate });
  return activeListContains(
    ctx.db,
    programId,
    identifiers.map(({ kind, value }) => ({ kind, hmac: ctx.eligibilityList.lookupHash(value) })),
  );
}
