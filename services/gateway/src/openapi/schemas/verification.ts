import { subjectKeys, subjectTypes } from '../../validation/subject-keys';
import { plainText } from './text';

/** Verification responses, details, metadata and the bodies of the steps (the spec's verification resources). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const strings = { type: 'array', items: { type: 'string' } } as const;
const orNull = (description: string) => ({ type: ['string', 'null'], description });

/** The JSON schema of each subject key; every one may be null, meaning not given. */
const subjectFields: Record<string, object> = {
  firstName: orNull(
    'Test mode: REJECTED ends in docUpload, UPLOAD in docUpload, SSO in sso, __ERROR__ in error.',
  ),
  lastName: orNull('Family name.'),
  birthDate: orNull('YYYY-MM-DD; a malformed date is the recoverable error invalidBirthDate.'),
  email: orNull('A malformed address is the recoverable error invalidEmail.'),
  organization: {
    type: ['object', 'null'],
    additionalProperties: false,
    minProperties: 1,
    description: 'An organization of the program search (GET /program/{programId}/organization).',
    properties: {
      id: { type: ['integer', 'null'], minimum: 1 },
      name: { type: ['string', 'null'] },
    },
  },
  universityId: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'The student form’s alternative to organization.id.',
  },
  metadata: {
    type: ['object', 'null'],
    description: 'A flat map of strings kept with the verification (details, metadata endpoints).',
    additionalProperties: { type: 'string' },
  },
  postalCode: orNull(
    'Postal code. Optional for Age and Senior (their programs decide from the birth date); checked when given.',
  ),
  phoneNumber: orNull('Phone number, preferably E.164.'),
  country: orNull('ISO 3166-1 alpha-2.'),
  dischargeDate: orNull('YYYY-MM-DD.'),
  status: orNull(
    'FirstResponder: POLICE, EMT, FIREFIGHTER, SEARCH_AND_RESCUE; MedicalProfessional: NURSE, ' +
      'DOCTOR, DENTIST, PHARMACIST, OTHER_HEALTH_WORKER. Required; only the values of the start ' +
      'response’s availableStatuses are accepted: another is 400 invalidRequest, whose systemErrorMessage ' +
      'names the allowed values.',
  ),
  statuses: {
    type: ['array', 'null'],
    items: { type: 'string' },
    description:
      'LicensedProfessional: LICENSED_COSMETOLOGIST, LICENSED_REAL_ESTATE_AGENT, VETERINARIAN, ' +
      'CHILD_CARE_WORKER, LIBRARIAN, INTERIOR_DESIGNER, ARCHITECT, GENERAL_CONTRACTOR, NUTRITION_PROFESSIONAL; ' +
      'Mover: HOME_BUYER, OTHER_MOVER; LowIncome: SNAP_BENEFITS, OTHER_GOVERNMENT_ASSISTANCE. Optional; the ' +
      'first value the program offers chooses the sub-segment. Only the values of the start response’s ' +
      'availableStatuses are accepted: another is 400 invalidRequest, whose systemErrorMessage names the ' +
      'allowed values.',
  },
  address1: orNull('Street address.'),
  city: orNull('City.'),
  state: orNull('State or region code.'),
  driverLicenseNumber: orNull('Driver license number.'),
  ebtCardNumber: orNull('EBT card number.'),
};

/** A marketplace token (collectMarketplaceToken, POST /verification/marketplace). */
export const marketplaceToken = {
  type: 'string',
  maxLength: 16384,
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
  description:
    'A compact JWS whose payload is the subject (the keys of the form the verification is on), signed ' +
    'with the program’s subject token key (ES256, RS256 or EdDSA).',
} as const;

/** `<Type>Subject` for every row of the subjects table: exactly its keys. */
export const subjectSchemaName = (type: string) => `${type}Subject`;

const subjectSchemas = Object.fromEntries(
  subjectTypes.map((type) => [
    subjectSchemaName(type),
    {
      type: 'object',
      additionalProperties: false,
      description: `Personal info of collect${type}PersonalInfo. Any other key is 400 invalidRequest.`,
      properties: Object.fromEntries(subjectKeys[type]!.map((key) => [key, subjectFields[key]])),
    },
  ]),
) as Record<`${string}Subject`, object>;

const organizationRef = {
  type: ['object', 'null'],
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
} as const;

export const verificationSchemas = {
  VerificationResponse: {
    type: 'object',
    description:
      'VR. A 200 status does not mean success: read currentStep. Optional fields appear with the steps named ' +
      'in their descriptions.',
    required: [
      'verificationId',
      'currentStep',
      'errorIds',
      'segment',
      'subSegment',
      'locale',
      'instantMatchAttempts',
    ],
    properties: {
      verificationId: { type: 'string', pattern: '^[0-9a-f]{24}$' },
      currentStep: {
        type: 'string',
        description:
          'collect<Type>PersonalInfo, collectMilitaryStatus, collectSocialSecurityNumber, sso, docUpload, ' +
          'pending, success or error (more may be added).',
        examples: ['collectStudentPersonalInfo', 'success'],
      },
      errorIds: { ...strings, description: 'Empty when no error.' },
      segment: { type: 'string', examples: ['student'] },
      subSegment: { type: ['string', 'null'], examples: ['activeDuty'] },
      locale: { type: 'string', examples: ['en-US'] },
      submissionUrl: {
        type: 'string',
        format: 'uri',
        description: 'While a step awaits input: where to send it (…/verification/{id}/step/{currentStep}).',
      },
      statusUrl: { type: 'string', format: 'uri', description: 'With pending: poll it with GET.' },
      systemErrorMessage: {
        type: 'string',
        description: 'With error: debugging text for integrators, never for end users.',
      },
      rewardCode: { type: 'string', description: 'With success, when the program has a code.' },
      rewardData: {
        type: 'object',
        required: ['rewardCode'],
        properties: { rewardCode: { type: 'string' } },
      },
      redirectUrl: {
        type: ['string', 'null'],
        description: 'With success (null when the program has none).',
      },
      consolationRewardCode: {
        type: 'string',
        description: 'When an expired verification has a consolation.',
      },
      availableStatuses: { ...strings, description: 'The statuses a status-choosing step accepts.' },
      rejectionReasons: { ...strings, description: 'With docUpload after a rejected review.' },
      maxReviewTime: { type: 'string', examples: ['20_MIN'] },
      estimatedReviewTime: { type: 'string', examples: ['A_FEW_MINUTES'] },
      country: { type: 'string', description: 'ISO 3166-1 alpha-2 of the person, where known.' },
      instantMatchAttempts: { type: 'integer', minimum: 0 },
    },
  },
  VerificationStepError: {
    type: 'object',
    description:
      'The 400 of a step the gateway or the service refused before it ran (e.g. an unexpected property): ' +
      'currentStep error; the verification itself is unchanged.',
    required: ['currentStep', 'errorIds', 'systemErrorMessage'],
    properties: {
      verificationId: { type: 'string', description: 'When the path names a verification.' },
      currentStep: { type: 'string', const: 'error' },
      errorIds: { ...strings, examples: [['invalidRequest']] },
      systemErrorMessage: { type: 'string' },
    },
  },
  VerificationHistory: {
    type: 'array',
    maxItems: 10,
    description: 'The most recent verifications of the tracking id, newest first.',
    items: ref('VerificationResponse'),
  },
  VerificationDetails: {
    type: 'object',
    required: [
      'programId',
      'trackingId',
      'personId',
      'created',
      'updated',
      'lastResponse',
      'personInfo',
      'docUploadRejectionCount',
      'docUploadRejectionReasons',
      'verificationMethod',
      'confirmedSegments',
    ],
    properties: {
      programId: { type: 'string' },
      trackingId: { type: 'string', description: 'Empty when the verification was started without one.' },
      personId: { type: 'string', description: 'A stable pseudonymous id of the person within the program.' },
      created: { type: 'integer', description: 'Epoch milliseconds.' },
      updated: { type: 'integer', description: 'Epoch milliseconds.' },
      lastResponse: ref('VerificationResponse'),
      personInfo: {
        type: ['object', 'null'],
        description: 'null before personal info was submitted.',
        required: ['firstName', 'lastName', 'email', 'birthDate', 'metadata', 'organization'],
        properties: {
          firstName: { type: 'string' },
          lastName: { type: 'string' },
          email: { type: 'string' },
          birthDate: { type: 'string', description: 'YYYY-MM-DD; empty when not collected.' },
          metadata: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
          organization: organizationRef,
        },
      },
      docUploadRejectionCount: { type: 'integer', minimum: 0 },
      docUploadRejectionReasons: { ...strings, examples: [['DOCUMENT_UNREADABLE']] },
      verificationMethod: { type: ['string', 'null'], enum: ['INSTANT', 'MANUAL', null] },
      confirmedSegments: {
        type: 'array',
        items: {
          type: 'object',
          required: ['segment', 'subSegment', 'organization', 'active', 'startDate', 'endDate'],
          properties: {
            segment: { type: 'string' },
            subSegment: { type: ['string', 'null'] },
            organization: organizationRef,
            active: { type: 'boolean' },
            startDate: { type: ['string', 'null'], description: 'YYYY-MM-DD' },
            endDate: { type: ['string', 'null'], description: 'YYYY-MM-DD' },
          },
        },
      },
    },
  },
  VerificationMetadata: {
    type: 'object',
    description: 'A flat map of strings; a nested or non-string value is 400 invalidRequest.',
    additionalProperties: { type: 'string' },
  },
  NewVerificationRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['programId'],
    properties: {
      programId: {
        type: 'string',
        pattern: '^[0-9a-f]{24}$',
        description: 'Another shape is 400 invalidRequest, an unknown program 404 noProgram.',
      },
      trackingId: {
        ...plainText(256),
        description:
          "Ties the verification to an identifier in the client's own systems (at most 256 characters, " +
          'without control characters; surrounding spaces are dropped).',
      },
    },
  },
  MilitaryStatusRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    properties: {
      status: {
        type: 'string',
        description:
          'ACTIVE_DUTY, VETERAN, RESERVIST, MILITARY_RETIREE, MILITARY_FAMILY or GOLD_STAR_FAMILY, as far as ' +
          'the program offers them (availableStatuses); another value is the recoverable error ' +
          'invalidMilitaryStatus, whose systemErrorMessage names the allowed values.',
      },
    },
  },
  SocialSecurityNumberRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['socialSecurityNumber'],
    properties: {
      socialSecurityNumber: {
        type: 'string',
        description: 'Used for the identity match only; never stored.',
      },
    },
  },
  MarketplaceTokenRequest: {
    type: 'object',
    additionalProperties: false,
    description: 'The marketplace token, as marketplaceToken or as verificationToken (exactly one).',
    oneOf: [{ required: ['marketplaceToken'] }, { required: ['verificationToken'] }],
    properties: {
      marketplaceToken: marketplaceToken,
      verificationToken: { ...marketplaceToken, description: 'Another name of marketplaceToken.' },
    },
  },
  ...subjectSchemas,
} as const;
