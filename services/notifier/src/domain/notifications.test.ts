import { deliveryBody, notificationOfStepChange, skipReason, type WebhookSettings } from './notifications';

describe('notificationOfStepChange', () => {
  it.each([
    ['pending', 'docUpload', [], 'DOCUMENT_REJECTED'],
    ['pending', 'error', ['docReviewLimitExceeded'], 'MAX_DOC_UPLOAD_ATTEMPTS'],
    ['docUpload', 'error', ['docReviewLimitExceeded'], 'MAX_DOC_UPLOAD_ATTEMPTS'],
    ['pending', 'success', [], undefined],
    ['collectStudentPersonalInfo', 'docUpload', ['verificationLimitExceeded'], undefined],
    ['docUpload', 'pending', [], undefined],
    ['collectStudentPersonalInfo', 'error', ['simulatedError'], undefined],
    ['', 'collectStudentPersonalInfo', [], undefined],
  ])('%s -> %s %j: %s', (previousStep, currentStep, errorIds, expected) => {
    expect(notificationOfStepChange({ previousStep, currentStep, errorIds })).toBe(expected);
  });
});

describe('skipReason', () => {
  const webhook = (notifications: WebhookSettings['notifications'] = []): WebhookSettings => ({
    callbackUri: 'https://hooks.example.com/eligo',
    signingSecret: 'whsec_x',
    notifications,
    live: false,
    accountId: 'a'.repeat(24),
  });

  it('delivers success to every program with a webhook, opt-in or not', () => {
    expect(skipReason('SUCCESS', webhook())).toBeUndefined();
    expect(skipReason('SUCCESS', webhook(['EXPIRATION']))).toBeUndefined();
  });

  it('delivers an optional notification only when opted in', () => {
    expect(skipReason('EXPIRATION', webhook())).toBe('not-opted-in');
    expect(skipReason('EXPIRATION', webhook(['DOCUMENT_REJECTED']))).toBe('not-opted-in');
    expect(skipReason('EXPIRATION', webhook(['EXPIRATION']))).toBeUndefined();
  });

  it('delivers nothing without a webhook', () => {
    expect(skipReason('SUCCESS', undefined)).toBe('no-webhook');
    expect(skipReason('EXPIRATION', undefined)).toBe('no-webhook');
  });
});

describe('deliveryBody', () => {
  const id = '0123456789abcdef01234567';

  it('keeps the success body to the verification id alone', () => {
    expect(deliveryBody(id, 'SUCCESS')).toBe(`{"verificationId":"${id}"}`);
  });

  it.each(['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'] as const)(
    'names the %s notification in the body',
    (type) => {
      expect(JSON.parse(deliveryBody(id, type))).toEqual({ verificationId: id, notifierEventType: type });
    },
  );
});
