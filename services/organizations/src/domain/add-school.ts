import isEmail from 'validator/lib/isEmail';
import { parseHost } from './hosts';
import { isId } from './ids';
import { CONTROL_CHARACTERS, charLength, Problems, requiredText } from './problems';
import { checkCountry, checkNameQuery } from './search';

export const MAX_PERSON_NAME_LENGTH = 100;
export const MAX_SCHOOL_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_DECLINE_REASON_LENGTH = 500;
export const MAX_TRACKING_ID_LENGTH = 256;

/**
 * The add-school endpoints are public (no token): every field is required, and an invalid programId is bad
 * input (400 invalidRequest), unlike an unknown well-formed one (404 noProgram).
 */
function checkProgramId(problems: Problems, programId: string): string {
  if (programId === '') problems.add('programId', 'is required');
  else if (!isId(programId))
    problems.add('programId', 'is not a valid program id (24 lowercase hex characters)');
  return programId;
}

function checkSchoolDomain(problems: Problems, raw: string): string {
  const parsed = parseHost(raw);
  if ('problem' in parsed) {
    problems.add('schoolDomain', parsed.problem);
    return '';
  }
  return parsed.host;
}

export interface DomainSearch {
  programId: string;
  host: string;
  country: string;
}

export function checkDomainSearch(input: {
  programId: string;
  schoolDomain: string;
  schoolCountry: string;
}): DomainSearch {
  const problems = new Problems();
  const programId = checkProgramId(problems, input.programId);
  const host = checkSchoolDomain(problems, input.schoolDomain);
  const country = checkCountry(problems, 'schoolCountry', input.schoolCountry);
  problems.throwIfAny();
  return { programId, host, country };
}

export interface NameSearch {
  programId: string;
  /** The folded school name. */
  query: string;
  country: string;
}

export function checkNameSearch(input: {
  programId: string;
  schoolName: string;
  schoolCountry: string;
}): NameSearch {
  const problems = new Problems();
  const programId = checkProgramId(problems, input.programId);
  const query = checkNameQuery(problems, 'schoolName', input.schoolName);
  const country = checkCountry(problems, 'schoolCountry', input.schoolCountry);
  problems.throwIfAny();
  return { programId, query, country };
}

/** A person's request to add a school. firstName, lastName and email are PII (stored encrypted). */
export interface AddSchoolRequestInput {
  programId: string;
  firstName: string;
  lastName: string;
  email: string;
  schoolName: string;
  schoolDomain: string;
  schoolCountry: string;
  /**
   * The client's own identifier for the request (optional: empty or absent is none). Not the requester's
   * personal data: stored as it is, shown to operators.
   */
  trackingId?: string;
}

export type CheckedAddSchoolRequest = Required<AddSchoolRequestInput>;

/**
 * Normalised (trimmed; email, domain lower case; country upper case); a bad email is invalidEmail. The
 * tracking id is the client's and kept as given: 1 to 256 characters without control characters.
 */
export function checkAddSchoolRequest(input: AddSchoolRequestInput): CheckedAddSchoolRequest {
  const problems = new Problems();
  const programId = checkProgramId(problems, input.programId);
  const firstName = requiredText(problems, 'firstName', input.firstName, MAX_PERSON_NAME_LENGTH);
  const lastName = requiredText(problems, 'lastName', input.lastName, MAX_PERSON_NAME_LENGTH);
  const email = input.email.trim().toLowerCase();
  if (email === '') problems.add('email', 'is required');
  else if (email.length > MAX_EMAIL_LENGTH || !isEmail(email))
    problems.add('email', 'is not a valid email address', 'invalidEmail');
  const schoolName = requiredText(problems, 'schoolName', input.schoolName, MAX_SCHOOL_NAME_LENGTH);
  const schoolDomain = checkSchoolDomain(problems, input.schoolDomain);
  const schoolCountry = checkCountry(problems, 'schoolCountry', input.schoolCountry);
  const trackingId = input.trackingId ?? '';
  if (charLength(trackingId) > MAX_TRACKING_ID_LENGTH)
    problems.add('trackingId', `must be at most ${MAX_TRACKING_ID_LENGTH} characters`);
  else if (CONTROL_CHARACTERS.test(trackingId))
    problems.add('trackingId', 'must not contain control characters');
  problems.throwIfAny();
  return { programId, firstName, lastName, email, schoolName, schoolDomain, schoolCountry, trackingId };
}

/** Staff's reason for a decline: optional, at most 500 characters, one line of text. */
export function checkDeclineReason(raw: string): string {
  const problems = new Problems();
  const reason = raw.trim();
  if ([...reason].length > MAX_DECLINE_REASON_LENGTH)
    problems.add('reason', `must be at most ${MAX_DECLINE_REASON_LENGTH} characters`);
  else if (CONTROL_CHARACTERS.test(reason.replace(/[\r\n\t]/g, ' ')))
    problems.add('reason', 'must not contain control characters');
  problems.throwIfAny();
  return reason;
}
