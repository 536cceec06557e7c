import { isSegment, type Segment } from '@eligo/vocabulary';
import { CONTROL_CHARACTERS, Problems } from './invalid';
import { checkPage, type PageQuery } from './page';
import type { ProgramMode } from './program';
import { charLength } from './text';

/**
 * The queries of the staff console's lists, checked before anything is read: every problem of a request is
 * reported at once (INVALID_ARGUMENT invalidRequest), like the other requests of this service.
 */

export const MAX_NAME_FILTER = 100;

/** A name filter: '' is none; otherwise at most 100 characters without control characters, taken as it is. */
function checkNameFilter(problems: Problems, value: string): string | null {
  if (value === '') return null;
  if (charLength(value) > MAX_NAME_FILTER)
    problems.add('nameContains', `must be at most ${MAX_NAME_FILTER} characters`);
  else if (CONTROL_CHARACTERS.test(value))
    problems.add('nameContains', 'must not contain control characters');
  return value;
}

export interface AccountListQuery extends PageQuery {
  nameContains: string | null;
}

export function accountListQuery(request: {
  pageSize: number;
  pageToken: string;
  nameContains: string;
}): AccountListQuery {
  const problems = new Problems();
  const page = checkPage(problems, request);
  const nameContains = checkNameFilter(problems, request.nameContains);
  problems.throwIfAny();
  return { ...page, nameContains };
}

export function tokenListQuery(request: { pageSize: number; pageToken: string }): PageQuery {
  const problems = new Problems();
  const page = checkPage(problems, request);
  problems.throwIfAny();
  return page;
}

export interface ProgramListQuery extends PageQuery {
  /** null: every account's programs (the account itself is checked by the use case). */
  accountId: string | null;
  segment: Segment | null;
  mode: ProgramMode | null;
  nameContains: string | null;
}

export function programListQuery(request: {
  accountId: string;
  segment: string;
  /** undefined: both modes. */
  mode: ProgramMode | undefined;
  nameContains: string;
  pageSize: number;
  pageToken: string;
}): ProgramListQuery {
  const problems = new Problems();
  const page = checkPage(problems, request);
  const nameContains = checkNameFilter(problems, request.nameContains);
  let segment: Segment | null = null;
  if (request.segment !== '') {
    if (isSegment(request.segment)) segment = request.segment;
    else problems.add('segment', `${JSON.stringify(request.segment)} is not a segment`);
  }
  problems.throwIfAny();
  return {
    ...page,
    accountId: request.accountId === '' ? null : request.accountId,
    segment,
    mode: request.mode ?? null,
    nameContains,
  };
}
