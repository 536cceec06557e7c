import { TRIGGERS } from '@eligo/verification';

/** The staff view of a verification (admin API). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const epochMs = (description: string) => ({
  type: 'integer',
  description: `${description} Epoch milliseconds.`,
});

export const verificationAdminSchemas = {
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
