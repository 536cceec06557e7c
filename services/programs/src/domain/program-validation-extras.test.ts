import { expectInvalid, expectRejectedInvalid, rejected } from '../../test/domain-errors';
import { ed25519 } from '../../test/keys';
import { rules, settings, theme } from '../../test/program-settings';
import { Problems } from './invalid';
import {
  checkWebhook,
  validateProgramSettings,
  validateVerificationLimit,
  validateWebhook,
} from './program-validation';

describe('validateProgramSettings: webhook, normalisation, reporting', () => {
  it('reports the problems of a webhook given with the settings along with its own', async () => {
    const problems = new Problems();
    checkWebhook(problems, 'webhook.', {
      callbackUri: 'https://hooks.example.com/x#f',
      notifications: ['EXPIRATION', 'UNSPECIFIED'],
    });
    await expectRejectedInvalid(
      validateProgramSettings(settings({ name: '' }), problems),
      'webhook.callbackUri: must not contain a fragment (#...); ' +
        'webhook.notifications: "UNSPECIFIED" is not a webhook notification; name: is required',
    );
  });

  it('normalises: trimmed name, upper-case countries, canonical locale', async () => {
    const out = await validateProgramSettings(
      settings({
        name: '  Spaced  ',
        countries: ['us'],
        organizationRules: rules({ countries: ['gb'] }),
        theme: theme({ locale: 'pt-br' }),
      }),
    );
    expect(out.name).toBe('Spaced');
    expect(out.countries).toEqual(['US']);
    expect(out.organizationRules.countries).toEqual(['GB']);
    expect(out.theme.locale).toBe('pt-BR');
  });

  it('trims the subject token key, and takes a blank one for none', async () => {
    const { publicPem } = ed25519();
    const trimmed = await validateProgramSettings(settings({ subjectTokenKey: `\n${publicPem}\n` }));
    expect(trimmed.subjectTokenKey).toBe(publicPem.trim());
    const blank = await validateProgramSettings(settings({ subjectTokenKey: ' \n' }));
    expect(blank.subjectTokenKey).toBeNull();
  });

  it('reports every problem, and caps a long list', async () => {
    await expectRejectedInvalid(
      validateProgramSettings(settings({ name: '', countries: ['XX'] })),
      'name: is required; countries: "XX" is not an ISO 3166-1 alpha-2 country code',
    );
    const many = Array.from({ length: 30 }, (_, i) => -(i + 1));
    const { message } = await rejected(
      validateProgramSettings(settings({ organizationRules: rules({ includeIds: many }) })),
    );
    expect(message.split('; ')).toHaveLength(21);
    expect(message.endsWith('; and 10 more problems')).toBe(true);
  });
});

describe('validateVerificationLimit and validateWebhook', () => {
  it('accepts valid values', () => {
    expect(validateVerificationLimit({ quantity: 1, days: 1 })).toEqual({ quantity: 1, days: 1 });
    expect(validateWebhook({ callbackUri: 'http://localhost:8080/hook', notifications: [] })).toEqual({
      callbackUri: 'http://localhost:8080/hook',
      notifications: [],
    });
  });

  it('folds duplicate notifications and sorts them by name', () => {
    const webhook = validateWebhook({
      callbackUri: 'https://hooks.example.com/x',
      notifications: ['MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION', 'DOCUMENT_REJECTED', 'EXPIRATION'],
    });
    expect(webhook.notifications).toEqual(['DOCUMENT_REJECTED', 'EXPIRATION', 'MAX_DOC_UPLOAD_ATTEMPTS']);
  });

  it('does not change the input it normalises', () => {
    const notifications = ['EXPIRATION', 'DOCUMENT_REJECTED'];
    validateWebhook({ callbackUri: 'https://hooks.example.com/x', notifications });
    expect(notifications).toEqual(['EXPIRATION', 'DOCUMENT_REJECTED']);
  });

  it('names the fields with the given prefix', () => {
    const problems = new Problems();
    const webhook = checkWebhook(problems, 'webhook.', {
      callbackUri: 'https://hooks.example.com/x',
      notifications: ['EXPIRATION', 'EXPIRATION'],
    });
    expect(webhook).toEqual({ callbackUri: 'https://hooks.example.com/x', notifications: ['EXPIRATION'] });
    expect(() => problems.throwIfAny()).not.toThrow();
    checkWebhook(problems, 'webhook.', { callbackUri: '', notifications: ['expiration'] });
    expectInvalid(
      () => problems.throwIfAny(),
      'webhook.callbackUri: must not be empty; webhook.notifications: "expiration" is not a webhook notification',
    );
  });

  it.each<[string, () => unknown, string]>([
    ['no limit', () => validateVerificationLimit(undefined), 'limit: is required'],
    [
      'a limit of 1001',
      () => validateVerificationLimit({ quantity: 1001, days: 1 }),
      'verificationLimit.quantity: must be from 1 to 1000',
    ],
    [
      'zero days',
      () => validateVerificationLimit({ quantity: 1, days: 0 }),
      'verificationLimit.days: must be from 1 to 3650',
    ],
    [
      'an empty callback',
      () => validateWebhook({ callbackUri: '', notifications: [] }),
      'callbackUri: must not be empty',
    ],
    [
      'a mailto callback',
      () => validateWebhook({ callbackUri: 'mailto:a@b.c', notifications: [] }),
      'callbackUri: must be an absolute http or https URL',
    ],
    [
      'an unspecified notification',
      () => validateWebhook({ callbackUri: 'https://h.example.com', notifications: ['UNSPECIFIED'] }),
      'notifications: "UNSPECIFIED" is not a webhook notification',
    ],
    [
      'a notification the contract does not know',
      () =>
        validateWebhook({ callbackUri: 'https://h.example.com', notifications: ['DOCUMENT_REJECTED', '7'] }),
      'notifications: "7" is not a webhook notification',
    ],
    [
      'a bad callback and a bad notification at once',
      () => validateWebhook({ callbackUri: '/hook', notifications: ['SUCCESS'] }),
      'callbackUri: must be an absolute http or https URL; notifications: "SUCCESS" is not a webhook notification',
    ],
  ])('refuses %s', (_case, fn, message) => {
    expectInvalid(fn, message);
  });
});
