import { expectInvalid } from '../../test/domain-errors';
import { rules, settings, theme } from '../../test/program-settings';
import {
  validateCallbackUri,
  validateProgramSettings,
  validateVerificationLimit,
} from './program-validation';

describe('validateProgramSettings: webhook, normalisation, reporting', () => {
  it('validates the webhook callback given with the settings', () => {
    expect(() => validateProgramSettings(settings(), 'https://hooks.example.com/x')).not.toThrow();
    expectInvalid(
      () => validateProgramSettings(settings(), 'https://hooks.example.com/x#f'),
      'webhook.callbackUri: must not contain a fragment (#...)',
    );
  });

  it('normalises: trimmed name, upper-case countries, canonical locale', () => {
    const out = validateProgramSettings(
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

  it('reports every problem, and caps a long list', () => {
    expectInvalid(
      () => validateProgramSettings(settings({ name: '', countries: ['XX'] }), null),
      'name: is required; countries: "XX" is not an ISO 3166-1 alpha-2 country code',
    );
    const many = Array.from({ length: 30 }, (_, i) => -(i + 1));
    const message = (() => {
      try {
        validateProgramSettings(settings({ organizationRules: rules({ includeIds: many }) }), null);
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
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
