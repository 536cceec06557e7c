import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js';
import isEmail from 'validator/lib/isEmail';
import { CONTROL_CHARACTERS, Problems } from './invalid';

/** Where the verification link goes. PII: stored encrypted, never put in an event. */
export type Recipient = { channel: 'EMAIL'; email: string } | { channel: 'SMS'; phoneNumber: string };

export interface SendLinkInput {
  email: string | undefined;
  phoneNumber: string | undefined;
  trackingId: string;
}

export const MAX_EMAIL_LENGTH = 254;
export const MAX_TRACKING_ID_LENGTH = 100;

/**
 * Exactly one recipient: an email (normalised to lower case, so the same person is one address) or a phone
 * number in international form (stored as E.164; without a country code there is no way to tell which
 * country's number it is).
 */
export function validateSendLink(input: SendLinkInput): { recipient: Recipient; trackingId: string } {
  const problems = new Problems();
  let recipient: Recipient | undefined;
  if (input.email !== undefined && input.phoneNumber !== undefined) {
    problems.add('recipient', 'give either email or phoneNumber, not both');
  } else if (input.email !== undefined) {
    const email = input.email.trim().toLowerCase();
    if (email.length > MAX_EMAIL_LENGTH)
      problems.add('email', `must be at most ${MAX_EMAIL_LENGTH} characters`);
    else if (!isEmail(email)) problems.add('email', 'is not a valid email address');
    else recipient = { channel: 'EMAIL', email };
  } else if (input.phoneNumber !== undefined) {
    const phone = input.phoneNumber.trim();
    if (!isValidPhoneNumber(phone))
      problems.add('phoneNumber', 'is not a valid phone number in international form (e.g. +14155550100)');
    else recipient = { channel: 'SMS', phoneNumber: parsePhoneNumberWithError(phone).number };
  } else {
    problems.add('recipient', 'email or phoneNumber is required');
  }
  if (input.trackingId.length > MAX_TRACKING_ID_LENGTH)
    problems.add('trackingId', `must be at most ${MAX_TRACKING_ID_LENGTH} characters`);
  if (CONTROL_CHARACTERS.test(input.trackingId))
    problems.add('trackingId', 'must not contain control characters');
  problems.throwIfAny();
  return { recipient: recipient!, trackingId: input.trackingId };
}
