import { isDomainError, type DomainError } from '@eligo/runtime';
import {
  declaredLengthTooLarge,
  fieldPartProblem,
  filePartProblem,
  MAX_MULTIPART_BYTES,
  multipartLimits,
  multipartTooLarge,
  tooManyFiles,
} from './multipart-parts';

const MiB = 1024 * 1024;
const png = { filename: 'id.png', mimeType: 'image/png' };

function expectError(err: DomainError | undefined, errorIds: string[], message: RegExp) {
  expect(isDomainError(err)).toBe(true);
  expect([err!.kind, err!.errorIds]).toEqual(['invalidArgument', errorIds]);
  expect(err!.message).toMatch(message);
}

describe('form B limits', () => {
  it('stops a file one byte past 10 MiB, allows three files and buffers no field value', () => {
    expect(multipartLimits).toEqual({ files: 3, fileSize: 10 * MiB + 1, fieldSize: 0 });
  });

  it('takes three full files plus 1 MiB of part headers in all', () => {
    expect(MAX_MULTIPART_BYTES).toBe(31 * MiB);
    expect(declaredLengthTooLarge(String(31 * MiB))).toBe(false);
    expect(declaredLengthTooLarge(String(31 * MiB + 1))).toBe(true);
    expect(declaredLengthTooLarge(undefined)).toBe(false);
    const tooLarge = multipartTooLarge();
    expect([tooLarge.status, tooLarge.shape, tooLarge.errorIds]).toEqual([413, 'ER', ['invalidRequest']]);
    expect(tooLarge.message).toMatch(/larger than 32505856 bytes/);
  });

  it('names a fourth file invalidNumberOfFiles (a 400 VR, like the service for a manifest of four)', () => {
    expectError(tooManyFiles(), ['invalidNumberOfFiles'], /At most 3 files/);
  });
});

describe('form B part rules', () => {
  // The spec: "each part key beginning with `file`" (file1, file2, ...); clients also send a bare `file`.
  it.each([
    'file',
    'file0',
    'file1',
    'file2',
    'file3',
    'file9',
    'file10',
    'file007',
    'files[]',
    'file-1',
    'fileFront',
    `file${'x'.repeat(60)}`,
  ])('accepts a file in part %s', (name) => {
    expect(filePartProblem(name, png)).toBeUndefined();
  });

  it.each(['File1', 'document', ' file1', 'file 1', 'file\u0000', `file${'x'.repeat(61)}`, '', undefined])(
    'refuses a file in part %p',
    (name) => {
      expectError(filePartProblem(name, png), ['invalidRequest'], /parts named beginning with "file"/);
    },
  );

  it('refuses a part name used twice', () => {
    expect(filePartProblem('file', png, [])).toBeUndefined();
    expectError(filePartProblem('file', png, ['file']), ['invalidRequest'], /Part file appears twice/);
    expect(filePartProblem('file2', png, ['file1'])).toBeUndefined();
  });

  it('wants a file name of 1 to 255 characters', () => {
    expect(filePartProblem('file1', { ...png, filename: 'a'.repeat(255) })).toBeUndefined();
    for (const filename of ['', 'a'.repeat(256), undefined as unknown as string])
      expectError(
        filePartProblem('file1', { ...png, filename }),
        ['invalidRequest'],
        /file1 needs a file name/,
      );
  });

  it('refuses a part Content-Type longer than a manifest may declare', () => {
    expect(filePartProblem('file1', { ...png, mimeType: 'a/'.padEnd(127, 'b') })).toBeUndefined();
    expectError(
      filePartProblem('file2', { ...png, mimeType: 'a/'.padEnd(128, 'b') }),
      ['invalidRequest'],
      /file2 has a Content-Type longer than 127/,
    );
  });

  it('refuses every non-file part, naming it', () => {
    expectError(fieldPartProblem('file1'), ['invalidRequest'], /"file1" is not a file/);
    expectError(fieldPartProblem('comment'), ['invalidRequest'], /"comment" is not a file/);
    expectError(fieldPartProblem(undefined), ['invalidRequest'], /"" is not a file/);
  });
});
