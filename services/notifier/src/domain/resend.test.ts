import { resendRefusal } from './resend';
import type { WebhookSettings } from './notifications';

const webhook = (notifications: WebhookSettings['notifications'] = []): WebhookSettings => ({
  callbackUri: 'https://example.com/hooks',
  signingSecret: 'whsec_x',
  notifications,
  live: false,
  accountId: '0123456789abcdef01234567',
});
const facts = (over: Partial<Parameters<typeof resendRefusal>[0]> = {}) => ({
  status: 'failed' as const,
  resendPending: false,
  eventType: 'SUCCESS' as const,
  webhook: webhook(),
  endpoint: 'active' as const,
  ...over,
});

describe('resendRefusal', () => {
  it.each(['failed', 'delivered', 'cancelled'] as const)('sends a %s delivery again', (status) => {
    expect(resendRefusal(facts({ status }))).toBeUndefined();
  });

  it('sends again to an endpoint the notifier has no row for yet', () => {
    expect(resendRefusal(facts({ endpoint: undefined }))).toBeUndefined();
  });

  it('refuses a pending delivery, and one whose resend is pending', () => {
    expect(resendRefusal(facts({ status: 'pending' }))).toBe('deliveryPending');
    expect(resendRefusal(facts({ resendPending: true }))).toBe('deliveryPending');
  });

  it('refuses what would not be sent today', () => {
    expect(resendRefusal(facts({ webhook: undefined }))).toBe('noWebhook');
    expect(resendRefusal(facts({ eventType: 'EXPIRATION' }))).toBe('notOptedIn');
    expect(
      resendRefusal(facts({ eventType: 'EXPIRATION', webhook: webhook(['EXPIRATION']) })),
    ).toBeUndefined();
    expect(resendRefusal(facts({ endpoint: 'disabled' }))).toBe('webhookDisabled');
  });

  it('names pending before anything else: that delivery goes on whatever else holds', () => {
    expect(resendRefusal(facts({ status: 'pending', webhook: undefined, endpoint: 'disabled' }))).toBe(
      'deliveryPending',
    );
  });
});
