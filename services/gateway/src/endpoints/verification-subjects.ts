import { z } from 'zod';
import { verificationVerificationV1 } from '@eligo/proto';
import {
  DEVICE_FINGERPRINT_HASH_RULE,
  EXTERNAL_USER_ID_RULE,
  LOCALE_RULE,
  MAX_DEVICE_FINGERPRINT_HASH_LENGTH,
  MAX_EXTERNAL_USER_ID_LENGTH,
  SUBJECT_KEYS,
  SUBJECT_TYPES,
  validDeviceFingerprintHash,
  validExternalUserId,
  type SubjectKey,
  type SubjectType,
} from '@eligo/vocabulary';
import { NO_CONTROL_CHARACTERS } from '../openapi/schemas/text';
import {
  isLocale,
  LOCALE,
  localeDescription,
  METADATA_LIMITS,
  metadataMap,
  metadataRules,
  noControlCharacters,
  ruled,
} from './verification-fields';
import { orNull } from './schemas-nullable';

/**
 * The personal info of the steps collect<Type>PersonalInfo: one schema per row of the spec's subjects table
 * (`<Type>Subject`), the single source of the document's schema and of the check of the step's JSON body
 * (endpoints/verification-step-check.ts words its refusals). Every key may be null, meaning not given. The
 * person's values (dates, emails, statuses) and the metadata's sizes are the verification domain's to
 * judge: it answers recoverable errors the client can correct.
 */

const POSITIVE_INTEGER = 'must be a positive integer';
const text = (description: string) =>
  orNull(noControlCharacters(z.string({ error: 'must be a string' }))).meta({ description });
/** JSON numbers are doubles: ids beyond 2^53 - 1 cannot be told apart, so none is taken (z.int()). */
const positiveInteger = () => orNull(z.int({ error: POSITIVE_INTEGER }).min(1, { error: POSITIVE_INTEGER }));

/** The person's number with the customer, which the program's eligibility list and HTTP source match. */
const customerNumber = (kind: 'member' | 'employee', type: SubjectType) =>
  orNull(
    ruled(`must be ${EXTERNAL_USER_ID_RULE}`, validExternalUserId).meta({
      minLength: 1,
      maxLength: MAX_EXTERNAL_USER_ID_LENGTH,
      pattern: NO_CONTROL_CHARACTERS,
    }),
  ).meta({
    description:
      `The person’s ${kind} number with you (${EXTERNAL_USER_ID_RULE}), optional: matched against the ` +
      'program’s eligibility list (case and surrounding spaces aside) and sent to its HTTP source, stored ' +
      `encrypted with the personal info. Taken by the ${type} form only.`,
  });

const organization = orNull(
  z
    .strictObject(
      {
        id: positiveInteger().optional(),
        name: orNull(noControlCharacters(z.string({ error: 'must be a string' }))).optional(),
      },
      { error: 'must be an object {id (integer), name (string)}' },
    )
    .check(
      z.superRefine((org, ctx) => {
        if ((org.id ?? null) === null && (org.name ?? '') === '')
          ctx.addIssue({ code: 'custom', message: 'must have an id or a non-empty name', input: org });
      }),
    )
    // The check above, as the document states it.
    .meta({
      anyOf: [
        { required: ['id'], properties: { id: { type: 'integer' } } },
        { required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
      ],
    }),
).meta({
  description:
    'An organization of the program search (GET /program/{programId}/organization): an id, or a ' +
    'non-empty name (matched against the catalog); a name that matches none is the recoverable error ' +
    'invalidOrganization.',
});

/** Each key of the subjects table, its check and its statement. */
const subjectFields = {
  firstName: text(
    'Test mode: REJECTED ends in docUpload, UPLOAD in docUpload, SSO in sso, __ERROR__ in error.',
  ),
  lastName: text('Family name.'),
  birthDate: text('YYYY-MM-DD; a malformed date is the recoverable error invalidBirthDate.'),
  email: text('A malformed address is the recoverable error invalidEmail.'),
  organization,
  organizationEmail: text(
    'The person’s address at the organization, optional (forms naming an organization, not the student’s): ' +
      'where the email loop mails its code when the program offers it and the address is at one of the ' +
      'organization’s domains; a malformed one is invalidRequest. Stored encrypted with the personal info.',
  ),
  universityId: positiveInteger().meta({ description: 'The student form’s alternative to organization.id.' }),
  metadata: orNull(metadataMap({ withTextRules: true }).meta(METADATA_LIMITS)).meta({
    description:
      'A flat map of strings kept as the verification’s metadata (details, metadata endpoints). ' +
      metadataRules('the recoverable error'),
  }),
  postalCode: text(
    'Postal code. Optional for Age and Senior (their programs decide from the birth date); checked when given.',
  ),
  phoneNumber: text(
    'Phone number, preferably E.164; optional, a malformed one is the recoverable error invalidPhoneNumber. ' +
      'Stored encrypted with the personal info (reports with personal information show it). Taken by every ' +
      'form but the student and generic ones.',
  ),
  country: text('ISO 3166-1 alpha-2.'),
  dischargeDate: text('YYYY-MM-DD.'),
  status: text(
    'FirstResponder: POLICE, EMT, FIREFIGHTER, SEARCH_AND_RESCUE; MedicalProfessional: NURSE, ' +
      'DOCTOR, DENTIST, PHARMACIST, OTHER_HEALTH_WORKER. Required; only the values of the start ' +
      'response’s availableStatuses are accepted: another is 400 invalidRequest, whose systemErrorMessage ' +
      'names the allowed values.',
  ),
  // An item that is not a string is the list's fault, in the list's words.
  statuses: orNull(
    z.array(noControlCharacters(z.string({ error: 'must be an array of strings' })), {
      error: 'must be an array of strings',
    }),
  ).meta({
    description:
      'LicensedProfessional: LICENSED_COSMETOLOGIST, LICENSED_REAL_ESTATE_AGENT, VETERINARIAN, ' +
      'CHILD_CARE_WORKER, LIBRARIAN, INTERIOR_DESIGNER, ARCHITECT, GENERAL_CONTRACTOR, NUTRITION_PROFESSIONAL; ' +
      'Mover: HOME_BUYER, OTHER_MOVER; LowIncome: SNAP_BENEFITS, OTHER_GOVERNMENT_ASSISTANCE. Optional; the ' +
      'first value the program offers chooses the sub-segment. Only the values of the start response’s ' +
      'availableStatuses are accepted: another is 400 invalidRequest, whose systemErrorMessage names the ' +
      'allowed values.',
  }),
  address1: text('Street address.'),
  city: text('City.'),
  state: text('State or region code.'),
  driverLicenseNumber: text('Driver license number.'),
  ebtCardNumber: text('EBT card number.'),
  locale: orNull(ruled(`must be ${LOCALE_RULE}`, isLocale).meta({ ...LOCALE, examples: ['en-US'] })).meta({
    description: localeDescription(
      'From this submission on, the locale of every response of the verification (the program theme’s until ' +
        'a start or a body gives one). Not taken by the student and generic forms.',
    ),
  }),
  externalUserId: orNull(
    ruled(`must be ${EXTERNAL_USER_ID_RULE}`, validExternalUserId).meta({
      minLength: 1,
      maxLength: MAX_EXTERNAL_USER_ID_LENGTH,
      pattern: NO_CONTROL_CHARACTERS,
    }),
  ).meta({
    description:
      `The person’s identifier in your own systems (${EXTERNAL_USER_ID_RULE}): stored encrypted with the ` +
      'personal info and shown as externalUserId in the details. Not taken by the student and generic forms.',
  }),
  memberId: customerNumber('member', 'Member'),
  employeeId: customerNumber('employee', 'Employee'),
  deviceFingerprintHash: orNull(
    ruled(`must be ${DEVICE_FINGERPRINT_HASH_RULE}`, validDeviceFingerprintHash).meta({
      minLength: 1,
      maxLength: MAX_DEVICE_FINGERPRINT_HASH_LENGTH,
      pattern: `^[A-Za-z0-9+/=_-]{1,${MAX_DEVICE_FINGERPRINT_HASH_LENGTH}}$`,
    }),
  ).meta({
    description:
      `A hash of the person’s device from a fraud tool (${DEVICE_FINGERPRINT_HASH_RULE}): accepted for ` +
      'compatibility and checked, then dropped: it is neither stored nor used. Not taken by the student and ' +
      'generic forms.',
  }),
} satisfies Record<SubjectKey, z.ZodType>;

type Fields = typeof subjectFields;

/** A personal-info body once checked: any keys of its type, each possibly null (not given). */
export type SubjectBody = { [K in SubjectKey]?: z.output<Fields[K]> };

/** `<Type>Subject` for every row of the subjects table: exactly its keys. */
export const subjectSchemaName = (type: SubjectType) => `${type}Subject`;

const subjectSchema = (type: SubjectType) =>
  z
    .strictObject(Object.fromEntries(SUBJECT_KEYS[type].map((key) => [key, subjectFields[key].optional()])), {
      error: 'must be a JSON object',
    })
    .meta({
      id: subjectSchemaName(type),
      description:
        `Personal info of collect${type}PersonalInfo. Any other key, or a control character in any text ` +
        '(metadata keys included), is 400 invalidRequest (VerificationStepError).',
    }) as unknown as z.ZodType<SubjectBody>;

/** The subject schema of each type, in the spec's order. */
export const subjectSchemas = Object.fromEntries(
  SUBJECT_TYPES.map((type) => [type, subjectSchema(type)]),
) as Record<SubjectType, z.ZodType<SubjectBody>>;

/** The generic collectPersonalInfo step takes the student subject. */
export const GENERIC_SUBJECT_TYPE = 'Student' satisfies SubjectType;

/**
 * A checked body as the proto Subject: null counts as not given, and the device fingerprint is dropped
 * (checked, then dropped: nothing uses it).
 */
export function subjectToProto(body: SubjectBody): verificationVerificationV1.Subject {
  const { Subject } = verificationVerificationV1;
  const subject: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === null || value === undefined || key === 'deviceFingerprintHash') continue;
    subject[key] = value;
  }
  const { organization } = body;
  if (organization) subject.organization = { id: organization.id ?? 0, name: organization.name ?? '' };
  return Subject.fromPartial(subject as Parameters<typeof Subject.fromPartial>[0]);
}
