import { isAllowedMimeType, normaliseMimeType } from './mime';

describe('normaliseMimeType', () => {
  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/PNG', 'image/png'],
    [' image/gif ', 'image/gif'],
    ['application/pdf; charset=binary', 'application/pdf'],
    ['image/jpg', 'image/jpeg'],
    ['Image/JPG; q=1', 'image/jpeg'],
    ['image/jpeg', 'image/jpeg'],
    ['text/plain', 'text/plain'],
    ['', ''],
    // Names of Object.prototype: they used to reach the alias table's prototype (500 at the gateway).
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'tostring'],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseMimeType(input)).toBe(expected);
  });
});

describe('isAllowedMimeType', () => {
  it.each([
    ['image/jpeg', true],
    ['image/png', true],
    ['image/gif', true],
    ['application/pdf', true],
    ['image/jpg', false], // only canonical types: normalise first
    ['image/webp', false],
    ['image/svg+xml', false],
    ['text/html', false],
    ['', false],
  ])('%j -> %j', (input, expected) => {
    expect(isAllowedMimeType(input)).toBe(expected);
  });
});
