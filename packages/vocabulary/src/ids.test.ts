import { ID_HEX, ID_PATTERN, isId, newId } from './ids';

describe('ids', () => {
  it('makes 24 lowercase hex characters, different every time', () => {
    const ids = new Set(Array.from({ length: 1000 }, newId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('asks Web Crypto once per 64 ids, and no two draws overlap', () => {
    const draw = jest.spyOn(globalThis.crypto, 'getRandomValues');
    try {
      const ids = Array.from({ length: 640 }, newId);
      expect(draw.mock.calls.length).toBeGreaterThanOrEqual(10);
      expect(draw.mock.calls.length).toBeLessThanOrEqual(11);
      expect(new Set(ids).size).toBe(640);
    } finally {
      draw.mockRestore();
    }
  });

  it.each([
    ['0123456789abcdef01234567', true],
    ['0123456789ABCDEF01234567', false],
    ['0123456789abcdef0123456', false],
    ['0123456789abcdef012345678', false],
    ['0123456789abcdef0123456g', false],
    [' 0123456789abcdef01234567', false],
    ['0123456789abcdef01234567\n', false],
    ['', false],
  ])('isId(%j) = %s', (value, expected) => {
    expect(isId(value)).toBe(expected);
  });

  it('states the same rule as patterns', () => {
    expect(ID_PATTERN).toBe('^[0-9a-f]{24}$');
    expect(new RegExp(`^msg_${ID_HEX}$`).test(`msg_${newId()}`)).toBe(true);
  });
});
