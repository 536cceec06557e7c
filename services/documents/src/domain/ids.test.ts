import {
  hashUploadToken,
  isUploadTokenShaped,
  isUuid,
  newDocumentId,
  newReviewId,
  newUploadId,
  newUploadToken,
} from './ids';

describe('ids', () => {
  it.each([
    ['upload', newUploadId],
    ['document', newDocumentId],
    ['review', newReviewId],
  ])('a new %s id is a fresh UUID', (_, make) => {
    const id = make();
    expect(isUuid(id)).toBe(true);
    expect(make()).not.toBe(id);
  });

  it.each([
    ['0f8fad5b-d9cb-469f-a165-70867728950e', true],
    ['0F8FAD5B-D9CB-469F-A165-70867728950E', false],
    ['0f8fad5bd9cb469fa16570867728950e', false],
    ['0f8fad5b-d9cb-469f-a165-70867728950e ', false],
    ['', false],
  ])('isUuid(%j) = %s', (value, expected) => {
    expect(isUuid(value)).toBe(expected);
  });
});

describe('upload tokens', () => {
  it('are shaped as checked and stored as their SHA-256 only', () => {
    const { token, hash } = newUploadToken();
    expect(isUploadTokenShaped(token)).toBe(true);
    expect(hash).toEqual(hashUploadToken(token));
    expect(hash).toHaveLength(32);
    expect(newUploadToken().token).not.toBe(token);
  });

  it.each([
    ['a', false],
    ['A'.repeat(42), false],
    ['A'.repeat(44), false],
    [`${'A'.repeat(42)}=`, false],
    [`${'A'.repeat(41)}_-`, true],
  ])('isUploadTokenShaped(%j) = %s', (value, expected) => {
    expect(isUploadTokenShaped(value)).toBe(expected);
  });
});
