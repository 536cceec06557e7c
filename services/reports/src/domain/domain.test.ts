import { validateConversion } from './conversion';
import { totalsCell } from './totals-cell';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { csvLines, listCell, textCell } from './csv';
import { fieldSets } from './fields';
import { outcomeOf } from './outcome';
import { personalCells, reverifyCells, standardCells, verificationHeader } from './report-cells';
import type { ReportRow, ReverifyReportRow } from './report-row';
import { reportWindow, validateReportRequest, type ReportRequestInput } from './report-request';

const request = (overrides: Partial<ReportRequestInput> = {}): ReportRequestInput => ({
  startDate: '2026-01-01',
  endDate: '2026-01-31',
  format: 'CSV',
  piiIncluded: false,
  piiReason: '',
  programIds: [],
  mode: 'ALL',
  piiAllowed: false,
  ...overrides,
});

describe('validateReportRequest', () => {
  it('answers the params, programs sorted and unique', () => {
    const b = 'b'.repeat(24);
    const a = 'a'.repeat(24);
    expect(validateReportRequest(request({ programIds: [b, a, b], format: 'csv' }))).toEqual({
      params: { startDate: '2026-01-01', endDate: '2026-01-31', programIds: [a, b], mode: 'ALL' },
      pii: undefined,
    });
  });

  it.each([
    [{ startDate: '2026-1-1' }, 'startDate'],
    [{ endDate: '2026-02-29' }, 'endDate'],
    [{ endDate: '2025-12-31' }, 'before'],
    [{ startDate: '2025-01-01', endDate: '2026-01-02' }, '366 days'],
    [{ format: 'PDF' }, 'CSV'],
    [{ programIds: ['ZZ'] }, 'program id'],
    [{ piiIncluded: true, piiAllowed: true, piiReason: ' ' }, 'piiReason'],
    [{ piiIncluded: true, piiAllowed: true, piiReason: 'x'.repeat(501) }, '500'],
  ])('refuses %j', (overrides, message) => {
    expect(() => validateReportRequest(request(overrides))).toThrow(message);
  });

  it('needs the PII role for personal information, and keeps the trimmed reason', () => {
    expect(() => validateReportRequest(request({ piiIncluded: true, piiReason: 'audit' }))).toThrow(
      expect.objectContaining({ kind: 'permissionDenied' }),
    );
    expect(
      validateReportRequest(request({ piiIncluded: true, piiAllowed: true, piiReason: ' audit ' })).pii,
    ).toEqual({
      reason: 'audit',
    });
  });

  it('covers whole UTC days, both ends included', () => {
    expect(reportWindow({ startDate: '2026-01-01', endDate: '2026-01-01' })).toEqual({
      from: new Date('2026-01-01T00:00:00Z'),
      until: new Date('2026-01-02T00:00:00Z'),
    });
  });
});

describe('validateConversion', () => {
  it('defaults to USD, rounds to 4 places and keeps unique trimmed tags', () => {
    expect(validateConversion({ amount: '12.34567', currency: '', tags: [' a', 'a', 'b'] })).toEqual({
      amount: '12.3457',
      currency: 'USD',
      tags: ['a', 'b'],
    });
    expect(validateConversion({ amount: '0', currency: 'eur', tags: [] }).currency).toBe('EUR');
  });

  it.each(['-0.01', 'NaN', '', ' ', '1e11', 'Infinity', '12,5'])('refuses the amount %j', (amount) => {
    expect(() => validateConversion({ amount, currency: '', tags: [] })).toThrow('Invalid amount');
  });

  it('refuses what ISO 4217 does not know and bad tags', () => {
    expect(() => validateConversion({ amount: '1', currency: 'ABC', tags: [] })).toThrow('Invalid currency');
    expect(() => validateConversion({ amount: '1', currency: '', tags: [''] })).toThrow('Invalid tags');
  });

  // A NUL in a tag reached Postgres and answered 500 (and tripped the gateway's breaker).
  it.each(['a\u0000', 'a\nb', 'a\u0085'])('refuses a tag with a control character %j', (tag) => {
    expect(() => validateConversion({ amount: '1', currency: '', tags: [tag] })).toThrow(
      'Invalid tags: each 1 to 64 characters, without control characters',
    );
  });

  it('counts a tag in characters, not UTF-16 units', () => {
    expect(validateConversion({ amount: '1', currency: '', tags: ['😀'.repeat(64)] }).tags).toHaveLength(1);
    expect(() => validateConversion({ amount: '1', currency: '', tags: ['😀'.repeat(65)] })).toThrow(
      'Invalid tags',
    );
  });

  it('shows totals per currency with two places at least', () => {
    expect(totalsCell({ USD: '12.7500', EUR: '3.0000', JPY: '1.2345' })).toBe(
      'EUR 3.00|JPY 1.2345|USD 12.75',
    );
    expect(totalsCell({})).toBe('');
  });
});

describe('CSV cells', () => {
  it('quotes formula-like text so spreadsheets show it as text', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      expect(textCell(value)).toBe(`'${value}`);
    expect(textCell('plain')).toBe('plain');
    expect(textCell(null)).toBe('');
    expect(listCell(['a', '=b'])).toBe("a|'=b");
  });

  it('writes RFC 4180 lines (quotes, commas, line breaks)', () => {
    expect(csvLines([['a,b', 'say "hi"', 'two\nlines']])).toBe('"a,b","say ""hi""","two\nlines"\r\n');
    expect(
      csvLines([
        ['', 'x'],
        ['lone\r', ' spaced ', '""'],
      ]),
    ).toBe(',x\r\n"lone\r", spaced ,""""""\r\n');
    expect(csvLines([])).toBe('');
  });

  it('writes exactly what csv-stringify writes with the report options, and reads back as it was', () => {
    // Random fields over the characters that matter to CSV (and a few that do not), rows of several widths.
    const alphabet = ['a', 'Z', '0', ',', '"', '\r', '\n', ' ', '|', "'", '=', 'é', '😀', '\t', ';'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const field = () => Array.from({ length: next(8) }, () => alphabet[next(alphabet.length)]).join('');
    const rows = Array.from({ length: 2000 }, () => Array.from({ length: 2 + next(6) }, field));
    const written = csvLines(rows);
    expect(written).toBe(stringify(rows, { record_delimiter: 'windows', quoted_match: /[\r\n]/ }));
    expect(parse(written, { record_delimiter: '\r\n', relax_column_count: true })).toEqual(rows);
  });
});

describe('report rows', () => {
  const row: ReportRow = {
    verification_id: 'v1',
    program_id: 'p1',
    program_name: 'Offer',
    tracking_id: null,
    segment: 'student',
    sub_segment: null,
    test_mode: false,
    current_step: 'error',
    error_ids: ['expiredVerification'],
    verification_method: null,
    organization_id: '7',
    organization_name: 'Uni',
    doc_upload_count: 2,
    review_outcome: 'REJECTED',
    rejection_reasons: ['DOCUMENT_EXPIRED'],
    metadata_keys: ['k'],
    conversion_count: 1,
    conversion_totals: { USD: '1.0000' },
    conversion_tags: ['t'],
    created: '2026-01-01T00:00:00.000Z',
    last_updated: null,
    completed: null,
  };

  it('has one cell per header column, PII and metadata columns only when asked for', () => {
    expect(standardCells(row)).toHaveLength(verificationHeader(false, []).length);
    expect(standardCells(row).slice(6, 10)).toEqual(['LIVE', 'error', 'EXPIRED', 'expiredVerification']);
    const header = verificationHeader(true, ['k']);
    expect(header.slice(-2)).toEqual(['country', 'metadata.k']);
    expect([...standardCells(row), ...personalCells(undefined, ['k'])]).toHaveLength(header.length);
  });

  it("writes a person's cells in header order, guarding text against formulas", () => {
    const person = {
      firstName: '=Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phoneNumber: '',
      birthDate: '1815-12-10',
      postalCode: 'W1',
      country: 'GB',
      metadata: { k: '+1' },
    };
    expect(personalCells(person, ['k', 'missing'])).toEqual([
      "'=Ada",
      'Lovelace',
      'ada@example.com',
      '',
      '1815-12-10',
      'W1',
      'GB',
      "'+1",
      '',
    ]);
  });

  it('shows a re-verified id the projection does not know with its result only', () => {
    const unknown = {
      ...Object.fromEntries(Object.keys(row).map((k) => [k, null])),
      batch_id: 'b1',
      item_verification_id: 'v9',
      reverify_outcome: 'NOT_FOUND',
      reverify_error_ids: [],
      reverify_step: null,
      reverify_organization_id: null,
      processed: '2026-01-01T00:00:00.000Z',
    } as unknown as ReverifyReportRow;
    expect(reverifyCells(unknown).slice(0, 3)).toEqual(['b1', 'v9', 'NOT_FOUND']);
    expect(
      reverifyCells(unknown)
        .slice(6)
        .every((c) => c === ''),
    ).toBe(true);
  });

  it('derives the outcome from the step', () => {
    expect(outcomeOf('success', [])).toBe('SUCCESS');
    expect(outcomeOf('pending', [])).toBe('PENDING_REVIEW');
    expect(outcomeOf('collectStudentPersonalInfo', ['invalidEmail'])).toBe('IN_PROGRESS');
    expect(outcomeOf(null, [])).toBe('IN_PROGRESS');
  });

  it('lists metadata keys as METADATA fields', () => {
    expect(fieldSets(['order'])[2]).toEqual({
      scope: 'METADATA',
      fields: [expect.objectContaining({ name: 'metadata.order' })],
    });
  });
});
