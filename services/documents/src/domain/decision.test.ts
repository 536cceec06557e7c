import { parseDecider, parseDecision } from './decision';

describe('parseDecision', () => {
  it.each<[string, string, string[], unknown]>([
    ['an approval', 'approve', [], { approved: true, rejectionReasons: [] }],
    [
      'a rejection',
      'reject',
      ['DOCUMENT_UNREADABLE'],
      { approved: false, rejectionReasons: ['DOCUMENT_UNREADABLE'] },
    ],
    [
      'ten reasons, duplicates dropped',
      'reject',
      ['DOCUMENT_EXPIRED', 'A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7', 'H8', 'DOCUMENT_EXPIRED'],
      {
        approved: false,
        rejectionReasons: ['DOCUMENT_EXPIRED', 'A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7', 'H8'],
      },
    ],
  ])('accepts %s', (_, decision, reasons, expected) => {
    expect(parseDecision(decision, reasons)).toEqual(expected);
  });

  it.each<[string, string, string[]]>([
    ['an approval with reasons', 'approve', ['DOCUMENT_EXPIRED']],
    ['a rejection without reasons', 'reject', []],
    ['eleven reasons', 'reject', Array.from({ length: 11 }, (_, i) => `REASON_${i}`)],
    ['a lower-case reason', 'reject', ['document_expired']],
    ['a reason with spaces', 'reject', ['DOCUMENT EXPIRED']],
    ['a one-character reason', 'reject', ['X']],
    ['a 65-character reason', 'reject', [`A${'B'.repeat(64)}`]],
    ['a reason starting with a digit', 'reject', ['1DOCUMENT']],
    ['an unknown decision', 'maybe', []],
    ['an empty decision', '', []],
    ['a capitalised decision', 'Approve', []],
  ])('refuses %s', (_, decision, reasons) => {
    expect(() => parseDecision(decision, reasons)).toThrow(
      expect.objectContaining({ kind: 'invalidArgument' }),
    );
  });
});

describe('parseDecider', () => {
  it.each([
    ['', 'staff'],
    ['operator', 'operator'],
    [`staff:${'0a'.repeat(12)}`, `staff:${'0a'.repeat(12)}`],
  ])('records %j as %j', (given, recorded) => {
    expect(parseDecider(given)).toBe(recorded);
  });

  it.each([
    'staff',
    'test-mode',
    'Operator',
    'staff:',
    `staff:${'0A'.repeat(12)}`,
    `staff:${'0a'.repeat(13)}`,
  ])('refuses %j', (given) => {
    expect(() => parseDecider(given)).toThrow(expect.objectContaining({ kind: 'invalidArgument' }));
  });
});
