import type { ErrorId, Segment } from '@eligo/vocabulary';
import { ageDecision } from './age';
import { isMilitaryCollectStep, type CollectStep } from './steps';
import type { Subject } from './subject';

export type Mode = 'test' | 'live';

/** What a valid personal-info submission leads to; the use case turns it into the next step. */
export type Outcome =
  | { kind: 'success' }
  | { kind: 'docUpload' }
  | { kind: 'error'; errorIds: ErrorId[]; systemErrorMessage: string }
  | { kind: 'recoverable'; errorIds: ErrorId[] }
  | { kind: 'sso' }
  | { kind: 'emailLoop' }
  | { kind: 'ssn' };

export interface SubmissionInput {
  mode: Mode;
  segment: Segment;
  /** The collect step being filled (for the generic path: the verification's current step). */
  step: CollectStep;
  /** Validated and normalised (validateSubject returned nothing). */
  subject: Subject;
  program: { minAge?: number | null; maxAge?: number | null };
  /** YYYY-MM-DD, UTC. */
  today: string;
}

/**
 * Test-mode outcomes, chosen by the exact first name so an integrator can walk every branch of the flow
 * without real data. `SSN` is our addition to the public triggers: it is the only way to reach
 * collectSocialSecurityNumber in test mode, and only from a military form, the one place live mode asks for
 * it. Elsewhere it is an ordinary name (success). `EMAIL_LOOP` mails a code (step emailLoop) to the form's email
 * whatever its domain; the code is readable in the operator's captured messages.
 */
// A Map, not an object literal: a first name such as "constructor" must not find a prototype member.
const TEST_TRIGGERS = new Map<string, (step: CollectStep) => Outcome | undefined>([
  ['REJECTED', () => ({ kind: 'docUpload' })],
  ['UPLOAD', () => ({ kind: 'docUpload' })],
  [
    '__ERROR__',
    () => ({
      kind: 'error',
      errorIds: ['simulatedError'],
      systemErrorMessage: "Simulated error: test-mode programs fail on the first name '__ERROR__'.",
    }),
  ],
  ['SSO', () => ({ kind: 'sso' })],
  ['EMAIL_LOOP', () => ({ kind: 'emailLoop' })],
  ['SSN', (step) => (isMilitaryCollectStep(step) ? { kind: 'ssn' } : undefined)],
]);

/**
 * Decides a valid submission. Test mode never looks at birth dates or addresses: the first name alone
 * decides, so test data needs no care. Live mode:
 * - age and senior programs are decided by the birth date against the program's bounds; a refusal is final
 *   (error), since the date was valid and another one would be a different person;
 * - military needs the social security number for the identity match;
 * - every other segment goes to document review, unless one of the program's instant-match sources (LIST,
 *   HTTP_SOURCE: instant-sources.ts, asked by app/instant-match.ts after this decision) knows the person.
 */
export function decideSubmission(input: SubmissionInput): Outcome {
  if (input.mode === 'test') {
    return TEST_TRIGGERS.get(input.subject.firstName)?.(input.step) ?? { kind: 'success' };
  }
  if (input.segment === 'age' || input.segment === 'senior') {
    const refusal = ageDecision(
      input.subject.birthDate,
      input.today,
      input.program.minAge,
      input.program.maxAge,
    );
    if (refusal === undefined) return { kind: 'success' };
    return { kind: 'error', errorIds: [refusal], systemErrorMessage: AGE_REFUSAL_MESSAGES[refusal] };
  }
  if (isMilitaryCollectStep(input.step)) return { kind: 'ssn' };
  return { kind: 'docUpload' };
}

const AGE_REFUSAL_MESSAGES = {
  underagePerson: "The person is younger than the program's minimum age.",
  outsideAgePerson: "The person is older than the program's maximum age.",
  futureBirthDate: 'The birth date is in the future.',
} as const;

/** What a valid social security number leads to: test mode succeeds; live mode has no match source yet. */
export function decideSocialSecurityNumber(mode: Mode): Extract<Outcome, { kind: 'success' | 'docUpload' }> {
  return mode === 'test' ? { kind: 'success' } : { kind: 'docUpload' };
}

const SSN_SHAPES = [/^\d{9}$/, /^\d{3}-\d{2}-\d{4}$/];

/**
 * A number the SSA could have issued: nine digits, plain or as ###-##-####. Areas 000, 666 and 900-999,
 * group 00 and serial 0000 are never issued, so they are typos or made up.
 */
export function validSocialSecurityNumber(value: string): boolean {
  const trimmed = value.trim();
  if (!SSN_SHAPES.some((shape) => shape.test(trimmed))) return false;
  const digits = trimmed.replaceAll('-', '');
  const [area, group, serial] = [digits.slice(0, 3), digits.slice(3, 5), digits.slice(5)];
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}
