import { loadConfig } from '@eligo/runtime';
import { loadNotifierConfig } from './config';

const load = (env: Record<string, string>) =>
  loadNotifierConfig(loadConfig({ ELIGO_PUBLIC_BASE_URL: 'https://eligo.example.com', ...env }));

describe('notifier config', () => {
  it('has working defaults', () => {
    const config = load({});
    expect(config.webhook).toMatchObject({
      allowCidrs: [],
      timeoutMs: 15_000,
      disableAfterMs: 5 * 86_400_000,
      dispatchIntervalMs: 1000,
      concurrency: 16,
    });
    expect(config.webhook.retrySchedule).toHaveLength(10);
    expect(config.mail).toEqual({
      smtpUrl: undefined,
      from: 'Eligo <no-reply@eligo.local>',
      linkTemplate: 'https://eligo.example.com/verify/{programId}',
    });
  });

  it('parses the schedule, the allow-list and the SMTP URL', () => {
    const config = load({
      ELIGO_WEBHOOK_RETRY_SCHEDULE: '0,300ms,2s',
      ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
      ELIGO_WEBHOOK_DISABLE_AFTER: '1h',
      ELIGO_SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(config.webhook.retrySchedule).toEqual([0, 300, 2000]);
    expect(config.webhook.allowCidrs).toHaveLength(1);
    expect(config.webhook.disableAfterMs).toBe(3_600_000);
    expect(config.mail.smtpUrl).toBe('smtp://127.0.0.1:2525');
  });

  it.each([
    [{ ELIGO_WEBHOOK_RETRY_SCHEDULE: '0,5x' }, 'ELIGO_WEBHOOK_RETRY_SCHEDULE'],
    [{ ELIGO_WEBHOOK_ALLOW_CIDRS: '10.0.0.1' }, 'ELIGO_WEBHOOK_ALLOW_CIDRS'],
    [{ ELIGO_WEBHOOK_DISABLE_AFTER: 'soon' }, 'ELIGO_WEBHOOK_DISABLE_AFTER'],
    [{ ELIGO_SMTP_URL: 'http://mail.example.com' }, 'ELIGO_SMTP_URL'],
    [{ ELIGO_SEND_LINK_URL: 'https://x.example.com/verify' }, 'ELIGO_SEND_LINK_URL'],
    [{ ELIGO_WEBHOOK_CONCURRENCY: '0' }, 'ELIGO_WEBHOOK_CONCURRENCY'],
  ])('fails fast on %j, naming the variable', (env, name) => {
    expect(() => load(env)).toThrow(name);
  });
});
