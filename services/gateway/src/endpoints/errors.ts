import { z } from 'zod';

/**
 * The error bodies of the whole API (REST v2's ER and SEM, and the 500's ER), described once: the document's
 * components and the gateway's own type of an error body (errors.ts) come from here.
 */
export const ErrorResponse = z
  .object({ errorIds: z.array(z.string()), systemErrorMessage: z.string() })
  .meta({
    id: 'ErrorResponse',
    description: 'ER: error ids plus a message for integrators (not for end users).',
  });

export const SystemErrorMessage = z.object({ systemErrorMessage: z.string() }).meta({
  id: 'SystemErrorMessage',
  description: 'SEM: only a message for integrators.',
});

export const InternalServerError = z
  .object({
    errorIds: z.array(z.string()).meta({ const: ['internalServerError'] }),
    systemErrorMessage: z.literal('Internal server error'),
  })
  .meta({
    id: 'InternalServerError',
    description:
      'The ER of a 500: errorIds [internalServerError] and a generic message, whatever failed (the detail is ' +
      'only logged by the gateway).',
  });

/** An error body as sent: ER or SEM. */
export type ErrorBody = z.input<typeof ErrorResponse> | z.input<typeof SystemErrorMessage>;
