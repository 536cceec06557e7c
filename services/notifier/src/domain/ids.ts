import { newId } from '@eligo/vocabulary';

/** A delivery's id, sent as webhook-id on every attempt: `msg_` (the Standard Webhooks habit) + an Eligo id. */
export const newDeliveryId = (): string => `msg_${newId()}`;

/** 24 lowercase hex characters from a CSPRNG, as every Eligo id (@eligo/vocabulary). */
export const newMessageId: () => string = newId;
