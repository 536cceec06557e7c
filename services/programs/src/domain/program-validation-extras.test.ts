import { expectInvalid, expectRejectedInvalid, rejected } from '../../test/domain-errors';
import { ed25519 } from '../../test/keys';
import { rules, settings, theme } from '../../test/program-settings';
import {
  validateCallbackUri,
  validateProgramSettings,
  validateVerificationLimit,
} from './program-validation';

describe('validateProgramSettings: webhook, normalisation, reporting', () => {
  it('validates the webhook callback given with the settings', async () => {
    await expect(validateProgramSettings(settings(), 'https://hooks.example.com/x')).resolves.toBeDefined();
    await expectRejectedInvalid(
      validateProgramSettings(settings(), 'https://hooks.example.com/x#f'),
      'webhook.callbackUri: must not contain a fragment (#...)',
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
      null,
    );
    expect(out.name).toBe('Spaced');
    expect(out.countries).toEqual(['US']);
    expect(out.organizationRules.countries).toEqual(['GB']);
    expect(out.theme.locale).toBe('pt-BR');
  });

  it('trims the subject token key, and takes a blank one for none', async () => {
    const { publicPem } = ed25519();
    const trimmed = await validateProgramSettings(settings({ subjectTokenKey: `\n${publicPem}\n` }), null);
    expect(trimmed.subjectTokenKey).toBe(publicPem.trim());
    const blank = await validateProgramSettings(settings({ subjectTokenKey: ' \n' }), null);
    expect(blank.subjectTokenKey).toBeNull();
  });

  it('reports every problem, and caps a long list', async () => {
    await expectRejectedInvalid(
      validateProgramSettings(settings({ name: '', countries: ['XX'] }), null),
      'name: is required; countries: "XX" is not an ISO 3166-1 alpha-2 country code',
    );
    const many = Array.from({ length: 30 }, (_, i) => -(i + 1));
    const { message } = await rejected(
      validateProgramSettings(settings({ organizationRules: rules({ includeIds: many }) }), null),
    );
    expect(message.split('; ')).toHaveLength(21);
    expect(message.endsWith('; and 10 more problems')).toBe(true);
  });
});

describe('validateVerificationLimit and validateCallbackUri', () => {
  it('accepts valid values', () => {
    expect(validateVerificationLimit({ quantity: 1, days: 1 })).toEqual({ quantity: 1, days: 1 });
    expect(validateCallbackUri('http://localhost:8080/hook')).toBe('http://localhost:8080/hook');
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
    ['an empty callback', () => validateCallbackUri(''), 'callbackUri: must not be empty'],
    [
      'a mailto callback',
      () => validateCallbackUri('mailto:a@b.c'),
      'callbackUri: must be an absolute http or https URL',
    ],
  ])('refuses %s', (_case, fn, message) => {
    expectInvalid(fn, message);
  });
});
