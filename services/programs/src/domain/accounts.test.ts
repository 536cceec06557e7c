import { validateAccountName } from './accounts';
import { expectInvalid } from '../../test/domain-errors';

describe('validateAccountName', () => {
  it.each([
    ['Acme', 'Acme'],
    ['  Acme Inc.  ', 'Acme Inc.'],
    ['x'.repeat(200), 'x'.repeat(200)],
    ['é'.repeat(200), 'é'.repeat(200)],
  ])('accepts %j as %j', (input, name) => {
    expect(validateAccountName(input)).toBe(name);
  });

  it.each([
    ['', 'name: is required'],
    ['   ', 'name: is required'],
    ['x'.repeat(201), 'name: must be at most 200 characters'],
    ['Acme\u0000', 'name: must not contain control characters'],
  ])('refuses %j', (input, message) => {
    expectInvalid(() => validateAccountName(input), message);
  });
});
