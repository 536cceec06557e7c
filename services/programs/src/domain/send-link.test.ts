import { expectInvalid } from '../../test/domain-errors';
import { validateSendLink, type SendLinkInput } from './send-link';

const base: SendLinkInput = { email: undefined, phoneNumber: undefined, trackingId: '' };

describe('validateSendLink', () => {
  it.each<[string, Partial<SendLinkInput>, ReturnType<typeof validateSendLink>]>([
    [
      'an email, lower-cased',
      { email: ' Jane.Doe@Example.com ' },
      { recipient: { channel: 'EMAIL', email: 'jane.doe@example.com' }, trackingId: '' },
    ],
    [
      'a US number as E.164',
      { phoneNumber: '+1 (415) 555-0100' },
      { recipient: { channel: 'SMS', phoneNumber: '+14155550100' }, trackingId: '' },
    ],
    [
      'a UK number',
      { phoneNumber: '+44 20 7946 0958' },
      { recipient: { channel: 'SMS', phoneNumber: '+442079460958' }, trackingId: '' },
    ],
    [
      'a tracking id of 100 characters',
      { email: 'a@example.com', trackingId: 't'.repeat(100) },
      { recipient: { channel: 'EMAIL', email: 'a@example.com' }, trackingId: 't'.repeat(100) },
    ],
  ])('accepts %s', (_case, fields, expected) => {
    expect(validateSendLink({ ...base, ...fields })).toEqual(expected);
  });

  it.each<[string, Partial<SendLinkInput>, string]>([
    ['no recipient', {}, 'recipient: email or phoneNumber is required'],
    [
      'both recipients',
      { email: 'a@example.com', phoneNumber: '+14155550100' },
      'recipient: give either email or phoneNumber, not both',
    ],
    ['a malformed email', { email: 'not-an-email' }, 'email: is not a valid email address'],
    ['an empty email', { email: '' }, 'email: is not a valid email address'],
    [
      'a 255-character email',
      { email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` },
      'email: must be at most 254 characters',
    ],
    [
      'a national number',
      { phoneNumber: '4155550100' },
      'phoneNumber: is not a valid phone number in international form (e.g. +14155550100)',
    ],
    [
      'a too short number',
      { phoneNumber: '+1 415' },
      'phoneNumber: is not a valid phone number in international form (e.g. +14155550100)',
    ],
    [
      'a 101-character tracking id',
      { email: 'a@example.com', trackingId: 't'.repeat(101) },
      'trackingId: must be at most 100 characters',
    ],
    [
      'a tracking id with a newline',
      { email: 'a@example.com', trackingId: 'a\nb' },
      'trackingId: must not contain control characters',
    ],
  ])('refuses %s', (_case, fields, message) => {
    expectInvalid(() => validateSendLink({ ...base, ...fields }), message);
  });
});
