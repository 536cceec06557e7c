import { MAX_FILE_NAME_LENGTH, sanitiseFileName } from './file-name';

describe('sanitiseFileName', () => {
  it.each([
    ['a plain name', 'student-id.png', 'student-id.png'],
    ['a Unix path', '/home/jane/docs/id.pdf', 'id.pdf'],
    ['a Windows path', 'C:\\Users\\Jane\\id card.jpg', 'id card.jpg'],
    ['path traversal', '../../etc/passwd', 'passwd'],
    ['control characters', 'id\u0000\u0007\r\n.pdf', 'id.pdf'],
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['runs of white space', 'my   \t id.png', 'my id.png'],
    ['leading dots', '...hidden.png', 'hidden.png'],
    ['trailing dots and spaces', 'scan.pdf. . ', 'scan.pdf'],
    ['an empty name', '', 'document'],
    ['only a path', 'folder/', 'document'],
    ['only dots', '..', 'document'],
    ['only control characters', '\u0001\u0002', 'document'],
    ['accents kept (NFC)', 'Jose\u0301.png', 'José.png'],
    ['triggers kept verbatim', 'passport_ACCEPTED.png', 'passport_ACCEPTED.png'],
  ])('%s', (_, input, expected) => {
    expect(sanitiseFileName(input)).toBe(expected);
  });

  it('cuts a long name to the limit and keeps its extension', () => {
    const name = sanitiseFileName(`${'a'.repeat(500)}.jpeg`);
    expect([...name]).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('a.jpeg')).toBe(true);
  });

  it('counts characters, not UTF-16 units, and never splits one', () => {
    const name = sanitiseFileName(`${'𠮷'.repeat(300)}.pdf`);
    expect([...name]).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name).toBe(`${'𠮷'.repeat(MAX_FILE_NAME_LENGTH - 4)}.pdf`);
  });

  it('cuts a long name without an extension to the limit', () => {
    expect(sanitiseFileName('x'.repeat(300))).toBe('x'.repeat(MAX_FILE_NAME_LENGTH));
  });
});
