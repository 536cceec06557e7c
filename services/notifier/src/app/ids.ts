import { randomBytes } from 'node:crypto';

/** A delivery's id, sent as webhook-id on every attempt: `msg_` (the Standard Webhooks habit) + 24 hex. */
export const newDeliveryId = (): string => `msg_${randomBytes(12).toString('hex')}`;

/** 24 lowercase hex characters from a CSPRNG, as every Eligo id. */
export const newMessageId = (): string => randomBytes(12).toString('hex');
