import { TRIGGERS } from '@eligo/vocabulary';
import { described } from './text';

/** The staff view of a verification (admin API). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const epochMs = (description: string) => ({
  type: 'integer',
  description: `${description} Epoch milliseconds.`,
});

/** Rejection reasons as the documents service takes them (services/documents/src/domain/decision.ts). */
const MAX_REJECTION_REASONS = 10;
const REJECTION_REASON = '^[A-Z][A-Z0-9_]{1,63}$';
const rejection = `a rejection takes 1 to ${MAX_REJECTION_REASONS} reasons`;

export const verificationAdminSchemas = {
  ReviewDecisionInput: {
    type: 'object',
    additionalProperties: false,
    required: ['decision'],
    description:
      'approve takes no rejection reasons (none, or an empty list); reject takes 1 to ' +
      `${MAX_REJECTION_REASONS}, which the person is shown.`,
    properties: {
      decision: { type: 'string', enum: ['approve', 'reject'] },
      rejectionReasons: {
        type: 'array',
        maxItems: MAX_REJECTION_REASONS,
        items: {
          type: 'string',
          pattern: described(REJECTION_REASON, 'must be an upper-case code of 2 to 64 letters, digits and _'),
        },
        description:
          'Upper-case codes such as DOCUMENT_UNREADABLE, DOCUMENT_EXPIRED, MISMATCH_PERSON_FIRST_NAME (2 to 64 ' +
          'characters: A-Z first, then A-Z, 0-9, _); a repeated one counts once.',
      },
    },
    if: { properties: { decision: { const: 'reject' } } },
    then: {
      required: ['rejectionReasons'],
      properties: { rejectionReasons: { type: 'array', minItems: 1, description: rejection } },
      description: rejection,
    },
    else: {
      properties: {
        rejectionReasons: {
          type: 'array',
          maxItems: 0,
          description: 'an approval takes no rejection reasons',
        },
      },
    },
  },
  StepRecord: {
    type: 'object',
    required: ['step', 'previousStep', 'trigger', 'errorIds', 'occurred'],
    properties: {
      step: { type: 'string', description: 'The step after the change.' },
      previousStep: { type: ['string', 'null'], description: 'null for the start.' },
      trigger: {
        type: 'string',
        // The verification service's own list: the schema cannot drift from the state machine.
        enum: ['start', ...TRIGGERS],
      },
      errorIds: { type: 'array', items: { type: 'string' } },
      occurred: epochMs('When the change committed.'),
    },
  },
  AdminVerification: {
    type: 'object',
    required: [
      'verificationId',
      'accountId',
      'segment',
      'subSegment',
      'currentStep',
      'testMode',
      'expires',
      'details',
      'steps',
    ],
    properties: {
      verificationId: { type: 'string' },
      accountId: { type: 'string', description: 'The account of the program.' },
      segment: { type: 'string' },
      subSegment: { type: ['string', 'null'] },
      currentStep: { type: 'string' },
      testMode: { type: 'boolean' },
      expires: epochMs('When an unfinished verification expires.'),
      details: ref('VerificationDetails'),
      steps: { type: 'array', description: 'Oldest first.', items: ref('StepRecord') },
    },
  },
} as const;
