import { isDomainError } from '@eligo/runtime';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { checkManifest, type ManifestFile } from './manifest';

const file = (extra: Partial<ManifestFile> = {}): ManifestFile => ({
  fileName: 'id.png',
  mimeType: 'image/png',
  fileSize: 1000,
  ...extra,
});

describe('checkManifest', () => {
  it.each<[string, ManifestFile[], string[][], string[]]>([
    ['one good file', [file()], [[]], []],
    [
      'three good files of each kind',
      [file(), file({ mimeType: 'application/pdf' }), file({ mimeType: 'image/gif' })],
      [[], [], []],
      [],
    ],
    ['exactly 10 MiB', [file({ fileSize: MAX_FILE_BYTES })], [[]], []],
    ['one byte', [file({ fileSize: 1 })], [[]], []],
    ['an empty file', [file({ fileSize: 0 })], [['ZERO_SIZE']], ['invalidFileSizeEmpty']],
    ['a negative size', [file({ fileSize: -5 })], [['ZERO_SIZE']], ['invalidFileSizeEmpty']],
    [
      'one byte over 10 MiB',
      [file({ fileSize: MAX_FILE_BYTES + 1 })],
      [['TOO_LARGE']],
      ['invalidFileSizeMax'],
    ],
    [
      'an unsupported type',
      [file({ mimeType: 'image/webp' })],
      [['UNSUPPORTED_TYPE']],
      ['unsupportedDocMimeType'],
    ],
    ['no type', [file({ mimeType: '' })], [['UNSUPPORTED_TYPE']], ['unsupportedDocMimeType']],
    [
      'two problems in one file: size first',
      [file({ fileSize: 0, mimeType: 'text/plain' })],
      [['ZERO_SIZE', 'UNSUPPORTED_TYPE']],
      ['invalidFileSizeEmpty', 'unsupportedDocMimeType'],
    ],
    [
      'errorIds once each, in first-seen order',
      [
        file({ mimeType: 'text/html' }),
        file({ fileSize: MAX_FILE_BYTES * 2 }),
        file({ mimeType: 'text/plain', fileSize: 0 }),
      ],
      [['UNSUPPORTED_TYPE'], ['TOO_LARGE'], ['ZERO_SIZE', 'UNSUPPORTED_TYPE']],
      ['unsupportedDocMimeType', 'invalidFileSizeMax', 'invalidFileSizeEmpty'],
    ],
    [
      'one bad file among good ones',
      [file(), file({ fileSize: 0 })],
      [[], ['ZERO_SIZE']],
      ['invalidFileSizeEmpty'],
    ],
  ])('%s', (_, files, errors, errorIds) => {
    const checked = checkManifest(files);
    expect(checked.files.map((f) => f.errors)).toEqual(errors);
    expect(checked.errorIds).toEqual(errorIds);
  });

  it('normalises the declared type and sanitises the name', () => {
    const [checked] = checkManifest([
      file({ fileName: 'C:\\scans\\ID.JPG', mimeType: 'Image/JPG; x=y' }),
    ]).files;
    expect(checked).toEqual({ fileName: 'ID.JPG', mimeType: 'image/jpeg', fileSize: 1000, errors: [] });
  });

  it.each([0, 4, 10])('refuses %i files as a bad request (invalidNumberOfFiles)', (count) => {
    let thrown: unknown;
    try {
      checkManifest(Array.from({ length: count }, () => file()));
    } catch (err) {
      thrown = err;
    }
    expect(isDomainError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ kind: 'invalidArgument', errorIds: ['invalidNumberOfFiles'] });
  });
});
