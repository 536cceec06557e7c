import { sniffVerdict } from './sniff';

describe('sniffVerdict', () => {
  it.each<[string, string | undefined, string | undefined]>([
    ['image/png', 'image/png', 'image/png'],
    ['image/jpeg', 'image/jpeg', 'image/jpeg'],
    ['image/jpg', 'image/jpeg', 'image/jpeg'],
    ['application/pdf', 'application/pdf', 'application/pdf'],
    ['image/gif', 'image/gif', 'image/gif'],
    // The declared type must match the bytes: a PNG declared as JPEG is refused.
    ['image/jpeg', 'image/png', undefined],
    ['application/pdf', 'image/png', undefined],
    // Bytes of no known type (text, a script) or of a type outside the allow-list.
    ['application/pdf', undefined, undefined],
    ['image/webp', 'image/webp', undefined],
    ['application/zip', 'application/zip', undefined],
  ])('declared %s, detected %s -> %s', (declared, detected, accepted) => {
    const verdict = sniffVerdict(declared, detected);
    expect(verdict.accepted ? verdict.detectedMimeType : undefined).toBe(accepted);
  });
});
