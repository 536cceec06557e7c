import {
  DEVICE_FINGERPRINT_HASH_RULE,
  EXTERNAL_USER_ID_RULE,
  ID_PATTERN,
  LOCALE_PATTERN,
  LOCALE_RULE,
  MAX_DEVICE_FINGERPRINT_HASH_LENGTH,
  MAX_EXTERNAL_USER_ID_LENGTH,
  MAX_LOCALE_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  RESERVED_METADATA_KEYS,
} from '@eligo/vocabulary';
import { subjectKeys, subjectTypes } from '../../validation/subject-keys';
import { described, NO_CONTROL_CHARACTERS, plainText } from './text';

/** Verification responses, details, metadata and the bodies of the steps (the spec's verification resources). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const strings = { type: 'array', items: { type: 'string' } } as const;
/**
 * A text of the person: its format is the service's to judge (a recoverable error the person can correct), a
 * control character the schema's (no form lets a person type one: the integrator's mistake, invalidRequest).
 */
const orNull = (description: string) => ({
  type: ['string', 'null'],
  pattern: NO_CONTROL_CHARACTERS,
  description,
});
/** JSON numbers are doubles: ids beyond 2^53 - 1 cannot be told apart, so none is taken. */
const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * Verification metadata, with every limit the verification service enforces. The service answers a map
 * past the size limits with maxMetadataValuesExceeded or maxMetadataLengthExceeded (not invalidRequest), so
 * the routes leave those checks to it rather than to this schema. `limits` says how those are answered.
 */
const metadataRules = (limits: string) =>
  `At most ${MAX_METADATA_KEYS} keys of 1 to ${MAX_METADATA_KEY_LENGTH} characters, values of at most ` +
  `${MAX_METADATA_VALUE_LENGTH} characters, no control characters in keys or values, and no reserved key ` +
  `(${RESERVED_METADATA_KEYS.join(', ')}): too many keys is ${limits} maxMetadataValuesExceeded, a key or ` +
  `value too long ${limits} maxMetadataLengthExceeded, anything else 400 invalidRequest.`;
/**
 * The characters of a metadata map: keys and values without control characters, no empty or reserved key.
 * A personal-info step is held to it up front (VerificationMetadataText), its sizes left to the service.
 */
const metadataText = {
  type: 'object',
  propertyNames: {
    type: 'string',
    minLength: 1,
    pattern: NO_CONTROL_CHARACTERS,
    not: { enum: [...RESERVED_METADATA_KEYS] },
  },
  additionalProperties: { type: 'string', pattern: NO_CONTROL_CHARACTERS },
} as const;
const metadataMap = {
  ...metadataText,
  maxProperties: MAX_METADATA_KEYS,
  propertyNames: { ...metadataText.propertyNames, maxLength: MAX_METADATA_KEY_LENGTH },
  additionalProperties: plainText(MAX_METADATA_VALUE_LENGTH),
} as const;

/** The locales the service takes (services/verification/src/domain/client-fields.ts), exactly. */
const localePattern = described(LOCALE_PATTERN, `must be ${LOCALE_RULE}`);
const localeField = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_LOCALE_LENGTH,
  pattern: localePattern,
  description:
    `${LOCALE_RULE[0]!.toUpperCase()}${LOCALE_RULE.slice(1)}, any case (another value is 400 invalidRequest), ` +
    `stored in its canonical form (EN-us as en-US). ${description}`,
  examples: ['en-US'],
});

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
    description:
      'An organization of the program search (GET /program/{programId}/organization): an id, or a ' +
      'non-empty name (matched against the catalog); a name that matches none is the recoverable error ' +
      'invalidOrganization.',
    properties: {
      id: { type: ['integer', 'null'], minimum: 1, maximum: MAX_SAFE_INTEGER },
      name: { type: ['string', 'null'], pattern: NO_CONTROL_CHARACTERS },
    },
    anyOf: [
      { required: ['id'], properties: { id: { type: 'integer' } } },
      { required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    ],
  },
  universityId: {
    type: ['integer', 'null'],
    minimum: 1,
    maximum: MAX_SAFE_INTEGER,
    description: 'The student form’s alternative to organization.id.',
  },
  metadata: {
    ...metadataMap,
    type: ['object', 'null'],
    description:
      'A flat map of strings kept as the verification’s metadata (details, metadata endpoints). ' +
      metadataRules('the recoverable error'),
  },
  postalCode: orNull(
    'Postal code. Optional for Age and Senior (their programs decide from the birth date); checked when given.',
  ),
  phoneNumber: orNull(
    'Phone number, preferably E.164; optional, a malformed one is the recoverable error invalidPhoneNumber. ' +
      'Stored encrypted with the personal info (reports with personal information show it). Taken by every ' +
      'form but the student and generic ones.',
  ),
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
    items: { type: 'string', pattern: NO_CONTROL_CHARACTERS },
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
  locale: {
    ...localeField(
      'From this submission on, the locale of every response of the verification (the program theme’s until ' +
        'a start or a body gives one). Not taken by the student and generic forms.',
    ),
    type: ['string', 'null'],
  },
  externalUserId: {
    ...plainText(MAX_EXTERNAL_USER_ID_LENGTH, 1),
    type: ['string', 'null'],
    description:
      `The person’s identifier in your own systems (${EXTERNAL_USER_ID_RULE}): stored encrypted with the ` +
      'personal info and shown as externalUserId in the details. Not taken by the student and generic forms.',
  },
  deviceFingerprintHash: {
    type: ['string', 'null'],
    minLength: 1,
    maxLength: MAX_DEVICE_FINGERPRINT_HASH_LENGTH,
    pattern: described(
      `^[A-Za-z0-9+/=_-]{1,${MAX_DEVICE_FINGERPRINT_HASH_LENGTH}}$`,
      `must be ${DEVICE_FINGERPRINT_HASH_RULE}`,
    ),
    description:
      `A hash of the person’s device from a fraud tool (${DEVICE_FINGERPRINT_HASH_RULE}): accepted for ` +
      'compatibility and checked, then dropped: it is neither stored nor used. Not taken by the student and ' +
      'generic forms.',
  },
};

/** A marketplace token (collectMarketplaceToken, POST /verification/marketplace). */
export const marketplaceToken = {
  type: 'string',
  maxLength: 16384,
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
  description:
    'A compact JWS whose payload is the subject (the keys of the form the verification is on), signed ' +
    'with the program’s subject token key (ES256, RS256 or EdDSA). The payload also carries the claims ' +
    'aud (the program id, or a list with it), iat, exp (at most 15 minutes after iat; 60 seconds of clock ' +
    'skew allowed) and jti (1-128 visible ASCII characters, taken once per program while the token lives); ' +
    'nbf and iss are optional. A token without them, expired, for another program or used before is ' +
    '400 invalidRequest.',
} as const;

/** `<Type>Subject` for every row of the subjects table: exactly its keys. */
export const subjectSchemaName = (type: string) => `${type}Subject`;

const subjectSchemas = Object.fromEntries(
  subjectTypes.map((type) => [
    subjectSchemaName(type),
    {
      type: 'object',
      additionalProperties: false,
      description:
        `Personal info of collect${type}PersonalInfo. Any other key, or a control character in any text ` +
        '(metadata keys included), is 400 invalidRequest (VerificationStepError).',
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
      verificationId: { type: 'string', pattern: ID_PATTERN },
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
      locale: {
        type: 'string',
        examples: ['en-US'],
        description:
          'BCP 47 tag: the verification’s own (the locale of the start or of the last personal-info body that ' +
          'gave one), else the program theme’s, else en-US.',
      },
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
      'externalUserId',
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
      externalUserId: {
        type: ['string', 'null'],
        description:
          'The person’s identifier in your own systems, as the personal-info body gave it (externalUserId); ' +
          'null when none.',
      },
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
  VerificationMetadataText: {
    ...metadataText,
    description:
      'What a metadata map may hold, whatever its size: keys of at least one character, and keys and values ' +
      'without control characters. A personal-info step with other metadata is refused with 400 ' +
      'invalidRequest before the verification service reads it (which answers the sizes).',
  },
  VerificationMetadata: {
    ...metadataMap,
    description: `A flat map of strings; a nested or non-string value is 400 invalidRequest. ${metadataRules('400')}`,
  },
  NewVerificationRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['programId'],
    properties: {
      programId: {
        type: 'string',
        pattern: ID_PATTERN,
        description: 'Another shape is 400 invalidRequest, an unknown program 404 noProgram.',
      },
      trackingId: {
        ...plainText(256),
        description:
          "Ties the verification to an identifier in the client's own systems (at most 256 characters, " +
          'without control characters; surrounding spaces are dropped).',
      },
      metadata: {
        ...metadataMap,
        description:
          'The verification’s metadata from the start, as PUT /verification/{verificationId}/metadata would ' +
          `set it (and announced the same way). ${metadataRules('400')}`,
      },
      locale: localeField(
        'The locale of every response of the verification, until a personal-info body gives another; ' +
          'without it, the program theme’s.',
      ),
    },
  },
  MilitaryStatusRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    properties: {
      status: {
        type: 'string',
        pattern: NO_CONTROL_CHARACTERS,
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
        pattern: NO_CONTROL_CHARACTERS,
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
