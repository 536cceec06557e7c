import { ecP256, ecP384, ed25519, rsa, x25519 } from '../../test/keys';
import { MAX_SUBJECT_TOKEN_KEY_BYTES, subjectTokenKeyProblem } from './subject-token-key';

describe('subjectTokenKeyProblem', () => {
  const p256 = ecP256();
  const rsa2048 = rsa(2048);
  const ed = ed25519();
  const withAlg = (jwk: string, alg: string) => JSON.stringify({ ...JSON.parse(jwk), alg });

  it.each<[string, string]>([
    ['an EC P-256 JWK (ES256)', p256.publicJwk],
    ['an EC P-256 PEM', p256.publicPem],
    ['an RSA 2048 JWK (RS256)', rsa2048.publicJwk],
    ['an RSA 2048 PEM', rsa2048.publicPem],
    ['an Ed25519 JWK (EdDSA)', ed.publicJwk],
    ['an Ed25519 PEM', ed.publicPem],
    ['a JWK naming its algorithm', withAlg(p256.publicJwk, 'ES256')],
    ['a JWK with kid and use', JSON.stringify({ ...JSON.parse(ed.publicJwk), kid: 'k1', use: 'sig' })],
    ['a PEM with CRLF line ends', p256.publicPem.trim().replace(/\n/g, '\r\n')],
  ])('accepts %s', async (_case, key) => {
    await expect(subjectTokenKeyProblem(key.trim())).resolves.toBeUndefined();
  });

  it.each<[string, string, string | RegExp]>([
    ['garbage', 'not a key', /^must be a JWK \(JSON with "kty"\) or a PEM public key/],
    ['broken JSON', '{"kty": "EC", ', /this is not valid JSON$/],
    ['JSON without kty', '{"crv": "P-256"}', /this JSON has no "kty"$/],
    ['a JSON array', '[1, 2]', /^must be a JWK/],
    ['a private JWK', p256.privateJwk, 'must be a public key; this JWK has the private or secret member "d"'],
    [
      'a secret (oct) JWK',
      JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' }),
      'must be a public key; this JWK has the private or secret member "k"',
    ],
    ['a private PEM', p256.privatePem.trim(), 'must be a public key, not a private one'],
    ['an RSA private PEM', rsa2048.privatePem.trim(), 'must be a public key, not a private one'],
    [
      'a certificate',
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      /^must be a JWK \(JSON with "kty"\) or a PEM public key/,
    ],
    [
      'a PEM of garbage',
      '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----',
      /^must be a public key for ES256 \(EC P-256\), RS256/,
    ],
    ['a PEM with text after it', `${p256.publicPem.trim()}\nextra`, /^must be a JWK/],
    [
      'a JWK of bad coordinates',
      JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }),
      /^must be a public key for/,
    ],
    ['a JWK of an unknown kty', JSON.stringify({ kty: 'XYZ' }), /^must be a public key for/],
    ['a P-384 key', ecP384().publicJwk, /^must be a public key for ES256 \(EC P-256\)/],
    ['a P-384 PEM', ecP384().publicPem.trim(), /^must be a public key for ES256 \(EC P-256\)/],
    ['a 1024-bit RSA key', rsa(1024).publicPem.trim(), /RS256 \(RSA of 2048 bits or more\)/],
    ['an X25519 (key agreement) key', x25519().publicJwk, /EdDSA \(Ed25519 or Ed448\)/],
    [
      'a JWK naming another algorithm',
      withAlg(p256.publicJwk, 'ES384'),
      '"alg" of the JWK must be one of ES256, RS256, EdDSA (or left out)',
    ],
    [
      'a JWK naming an algorithm its key does not fit',
      withAlg(p256.publicJwk, 'RS256'),
      'must be a public key for RS256',
    ],
    [
      'a key over 8 KiB',
      JSON.stringify({ ...JSON.parse(p256.publicJwk), kid: 'k'.repeat(MAX_SUBJECT_TOKEN_KEY_BYTES) }),
      'must be at most 8192 bytes',
    ],
  ])('refuses %s', async (_case, key, problem) => {
    const found = await subjectTokenKeyProblem(key);
    if (typeof problem === 'string') expect(found).toBe(problem);
    else expect(found).toMatch(problem);
  });

  it('counts the 8 KiB in bytes, not characters', async () => {
    const jwk = JSON.parse(p256.publicJwk) as Record<string, string>;
    const base = JSON.stringify({ ...jwk, kid: '' }).length;
    const fits = JSON.stringify({ ...jwk, kid: 'k'.repeat(MAX_SUBJECT_TOKEN_KEY_BYTES - base) });
    expect(Buffer.byteLength(fits)).toBe(MAX_SUBJECT_TOKEN_KEY_BYTES);
    await expect(subjectTokenKeyProblem(fits)).resolves.toBeUndefined();
    const wide = JSON.stringify({ ...jwk, kid: 'é'.repeat(MAX_SUBJECT_TOKEN_KEY_BYTES / 2) });
    await expect(subjectTokenKeyProblem(wide)).resolves.toBe('must be at most 8192 bytes');
  });
});
