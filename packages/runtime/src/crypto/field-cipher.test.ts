import { randomBytes } from 'node:crypto';
import { createFieldCipher, deriveKey, parseMasterKey } from './field-cipher';

const master = randomBytes(32);

describe('createFieldCipher', () => {
  const cipher = createFieldCipher(master, 'test.purpose');

  it('round-trips text, with a fresh IV each time', () => {
    const a = cipher.encrypt('jane@example.com');
    const b = cipher.encrypt('jane@example.com');
    expect(a.equals(b)).toBe(false);
    expect(a.includes(Buffer.from('jane'))).toBe(false);
    expect(cipher.decrypt(a)).toBe('jane@example.com');
    expect(cipher.decrypt(b)).toBe('jane@example.com');
  });

  it('binds the context: a value copied to another row does not decrypt', () => {
    const stored = cipher.encrypt('secret', 'row-1');
    expect(cipher.decrypt(stored, 'row-1')).toBe('secret');
    expect(() => cipher.decrypt(stored, 'row-2')).toThrow();
  });

  it('detects tampering', () => {
    const stored = cipher.encrypt('secret');
    stored.writeUInt8(stored.readUInt8(stored.length - 1) ^ 1, stored.length - 1);
    expect(() => cipher.decrypt(stored)).toThrow();
  });

  it('refuses values of another purpose or another master key, naming the key mismatch', () => {
    const stored = cipher.encrypt('secret');
    expect(() => createFieldCipher(master, 'other.purpose').decrypt(stored)).toThrow();
    expect(() => createFieldCipher(randomBytes(32), 'test.purpose').decrypt(stored)).toThrow(
      /another ELIGO_ENCRYPTION_KEY/,
    );
  });

  it('gives stable lookup hashes per purpose', () => {
    expect(cipher.lookupHash('a').equals(cipher.lookupHash('a'))).toBe(true);
    expect(cipher.lookupHash('a').equals(cipher.lookupHash('b'))).toBe(false);
    expect(cipher.lookupHash('a').equals(createFieldCipher(master, 'x').lookupHash('a'))).toBe(false);
  });
});

describe('parseMasterKey / deriveKey', () => {
  it.each([
    ['hex', master.toString('hex')],
    ['base64', master.toString('base64')],
    ['base64url', master.toString('base64url')],
  ])('accepts %s', (_name, text) => {
    expect(parseMasterKey(text).equals(master)).toBe(true);
  });

  it.each(['', 'short', randomBytes(16).toString('hex'), randomBytes(33).toString('base64')])(
    'rejects %j',
    (text) => {
      expect(() => parseMasterKey(text)).toThrow(/32 bytes/);
    },
  );

  it('derives different keys per purpose', () => {
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'b'))).toBe(false);
    expect(deriveKey(master, 'a')).toHaveLength(32);
  });
});
