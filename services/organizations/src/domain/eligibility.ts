import type { OrganizationType } from './organization';

/** What the organizations service reads of a program (GetProgram): its segment and its rules. */
export interface ProgramRules {
  programId: string;
  segment: string;
  /** The program's own countries; empty = every country. */
  countries: readonly string[];
  organizationRules: {
    types: readonly string[];
    countries: readonly string[];
    includeIds: readonly number[];
    excludeIds: readonly number[];
  };
}

/**
 * The organization types a program accepts when its rules name none: the institutions its segment's people
 * belong to. A segment missing here (senior, age, ...) does not restrict by type.
 */
export const DEFAULT_TYPES_BY_SEGMENT: Readonly<Record<string, readonly OrganizationType[]>> = {
  student: ['UNIVERSITY', 'POST_SECONDARY', 'HIGH_SCHOOL'],
  teacher: ['K12', 'HIGH_SCHOOL', 'POST_SECONDARY', 'UNIVERSITY'],
  military: ['MILITARY'],
  firstResponder: ['FIRST_RESPONDER'],
  medicalProfessional: ['MEDICAL'],
  employee: ['CORPORATE'],
  member: ['MEMBERSHIP', 'NON_PROFIT'],
};

/** The deprecated /organization/{student,teacher,military} searches: the types of that segment. */
export type OrganizationKind = 'STUDENT' | 'TEACHER' | 'MILITARY';
const SEGMENT_OF_KIND: Record<OrganizationKind, string> = {
  STUDENT: 'student',
  TEACHER: 'teacher',
  MILITARY: 'military',
};

/**
 * Which organizations are accepted, in a form both the pure check below and the repository's SQL read, so
 * that the rule has one definition: null = no restriction on that attribute; excluded ids lose to
 * everything, included ids win over types and countries.
 */
export interface AcceptanceFilter {
  types: readonly string[] | null;
  countries: readonly string[] | null;
  includeIds: readonly number[];
  excludeIds: readonly number[];
}

const orNull = (list: readonly string[] | undefined): readonly string[] | null =>
  list && list.length > 0 ? list : null;

/** Effective rules: the program's own types/countries when set, else the segment's types / program countries. */
export function acceptanceFilter(program: ProgramRules): AcceptanceFilter {
  const rules = program.organizationRules;
  return {
    types: orNull(rules.types) ?? orNull(DEFAULT_TYPES_BY_SEGMENT[program.segment]),
    countries: orNull(rules.countries) ?? orNull(program.countries),
    includeIds: [...rules.includeIds],
    excludeIds: [...rules.excludeIds],
  };
}

export function kindFilter(kind: OrganizationKind): AcceptanceFilter {
  return {
    types: DEFAULT_TYPES_BY_SEGMENT[SEGMENT_OF_KIND[kind]] ?? null,
    countries: null,
    includeIds: [],
    excludeIds: [],
  };
}

export function accepts(
  filter: AcceptanceFilter,
  org: { id: number; type: string; country: string },
): boolean {
  if (filter.excludeIds.includes(org.id)) return false;
  if (filter.includeIds.includes(org.id)) return true;
  return (
    (filter.types === null || filter.types.includes(org.type)) &&
    (filter.countries === null || filter.countries.includes(org.country))
  );
}

/** Whether the program takes people of this country at all (the add-school country check). */
export function acceptsCountry(filter: AcceptanceFilter, country: string): boolean {
  return filter.countries === null || filter.countries.includes(country);
}
