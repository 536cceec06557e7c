import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { expectPathsAsBefore, expectSchemasAsBefore } from '../../test/document-before';
import { checkBody } from './body-check';
import { expressPath } from './define';
import { endpointDocument } from './openapi';
import { reportEndpoints, type ReportRequestBody } from './report';
import { ReportRequest, ReportStatus } from './report-schemas';

describe('the report endpoint definitions', () => {
  const { paths, schemas } = endpointDocument(reportEndpoints, 'https://eligo.test');

  it('state the path items the hand-written openapi/report.paths.ts declared', () => {
    expect(Object.keys(paths)).toEqual([
      '/report/verification',
      '/report/reverify/{batchId}',
      '/report/fields',
      '/report/{reportId}/status',
      '/report/{reportId}',
    ]);
    expectPathsAsBefore(paths);
  });

  it('name the schemas the hand-written openapi/schemas/report.ts declared, as it declared them', () => {
    expect(Object.keys(schemas).sort()).toEqual([
      'ReportField',
      'ReportFieldSet',
      'ReportFieldSets',
      'ReportRequest',
      'ReportStatus',
    ]);
    expectSchemasAsBefore(schemas);
  });

  it('register the Express form of their paths', () => {
    expect(reportEndpoints.map((e) => `${e.method} ${expressPath(e)}`)).toEqual([
      'post /report/verification',
      'post /report/reverify/:batchId',
      'get /report/fields',
      'get /report/:reportId/status',
      'get /report/:reportId',
      'delete /report/:reportId',
    ]);
  });
});

describe('the check of a report request (ReportRequest)', () => {
  // Ajv as the request validator ran it on the hand-written schema: the answers below are its answers.
  const ok = { startDate: '2025-01-01', endDate: '2025-01-31' };
  const id = 'a1'.repeat(12);
  const emoji = (n: number) => '\u{1F600}'.repeat(n);
  const dayPattern = 'must match pattern "^\\\\d{4}-\\\\d{2}-\\\\d{2}$"';
  const noControl = 'must not contain control characters other than tabs and line breaks';
  const allowed =
    '(allowed: startDate, endDate, format, isPiiIncluded, piiReason, programIds, verificationModeInclusion)';

  it.each<[string, unknown, string | undefined]>([
    ['the dates only', ok, undefined],
    [
      'every field',
      {
        ...ok,
        format: 'CSV',
        isPiiIncluded: true,
        piiReason: 'Audit\tof\r\nMarch',
        programIds: [id],
        verificationModeInclusion: 'TEST',
      },
      undefined,
    ],
    ['leap days', { startDate: '2024-02-29', endDate: '2000-02-29' }, undefined],
    ['February 29 of 2023', { ...ok, endDate: '2023-02-29' }, 'body.endDate must match format "date"'],
    ['February 29 of 1900', { ...ok, endDate: '1900-02-29' }, 'body.endDate must match format "date"'],
    ['February 30', { ...ok, endDate: '2025-02-30' }, 'body.endDate must match format "date"'],
    ['month 13', { ...ok, startDate: '2025-13-01' }, 'body.startDate must match format "date"'],
    ['month 0', { ...ok, startDate: '2025-00-10' }, 'body.startDate must match format "date"'],
    ['day 0', { ...ok, startDate: '2025-01-00' }, 'body.startDate must match format "date"'],
    ['day 32', { ...ok, startDate: '2025-01-32' }, 'body.startDate must match format "date"'],
    ['April 31', { ...ok, startDate: '2025-04-31' }, 'body.startDate must match format "date"'],
    ['a short date', { ...ok, startDate: '2025-1-1' }, `body.startDate ${dayPattern}`],
    ['a date and time', { ...ok, startDate: '2025-01-01T00:00:00Z' }, `body.startDate ${dayPattern}`],
    ['a leading space', { ...ok, startDate: ' 2025-01-01' }, `body.startDate ${dayPattern}`],
    ['full-width digits', { ...ok, startDate: '２０２５-01-01' }, `body.startDate ${dayPattern}`],
    ['a numeric date', { ...ok, startDate: 20250101 }, 'body.startDate must be string'],
    [
      'two bad dates: the first',
      { startDate: '2025-1-1', endDate: '2025-02-30' },
      `body.startDate ${dayPattern}`,
    ],
    ['null', null, 'body must be object'],
    ['an array', [], 'body must be object'],
    ['a string', 'x', 'body must be object'],
    ['no dates', {}, 'body.startDate is required'],
    ['no end', { startDate: '2025-01-01' }, 'body.endDate is required'],
    ['no start', { endDate: '2025-01-01' }, 'body.startDate is required'],
    [
      'an unknown property',
      { ...ok, surelyUnknown: 1 },
      `body has unexpected property surelyUnknown ${allowed}`,
    ],
    ['only an unknown property', { surelyUnknown: 1 }, 'body.startDate is required'],
    [
      'an unknown property and a bad date',
      { ...ok, startDate: 'x', extra: 1 },
      `body has unexpected property extra ${allowed}`,
    ],
    ['format PDF', { ...ok, format: 'PDF' }, 'body.format must be one of CSV'],
    ['format csv', { ...ok, format: 'csv' }, 'body.format must be one of CSV'],
    ['a numeric format', { ...ok, format: 1 }, 'body.format must be string'],
    ['a null format', { ...ok, format: null }, 'body.format must be string'],
    ['isPiiIncluded yes', { ...ok, isPiiIncluded: 'yes' }, 'body.isPiiIncluded must be boolean'],
    ['isPiiIncluded null', { ...ok, isPiiIncluded: null }, 'body.isPiiIncluded must be boolean'],
    ['a reason of 500 characters', { ...ok, piiReason: 'x'.repeat(500) }, undefined],
    [
      'a reason of 501 characters',
      { ...ok, piiReason: 'x'.repeat(501) },
      'body.piiReason must NOT have more than 500 characters',
    ],
    ['a reason of 500 emoji', { ...ok, piiReason: emoji(500) }, undefined],
    [
      'a reason of 501 emoji',
      { ...ok, piiReason: emoji(501) },
      'body.piiReason must NOT have more than 500 characters',
    ],
    ['an empty reason', { ...ok, piiReason: '' }, undefined],
    ['a NUL in the reason', { ...ok, piiReason: 'a\u0000' }, `body.piiReason ${noControl}`],
    ['a line separator in the reason', { ...ok, piiReason: 'a\u2028b' }, `body.piiReason ${noControl}`],
    ['a C1 control in the reason', { ...ok, piiReason: 'a\u0085b' }, `body.piiReason ${noControl}`],
    [
      'too long and controls: the length',
      { ...ok, piiReason: '\u0007'.repeat(501) },
      'body.piiReason must NOT have more than 500 characters',
    ],
    ['a numeric reason', { ...ok, piiReason: 5 }, 'body.piiReason must be string'],
    ['program ids not a list', { ...ok, programIds: 'x' }, 'body.programIds must be array'],
    ['no program ids', { ...ok, programIds: [] }, undefined],
    [
      'a malformed program id',
      { ...ok, programIds: ['nope'] },
      'body.programIds[0] must match pattern "^[0-9a-f]{24}$"',
    ],
    [
      'an upper-case program id',
      { ...ok, programIds: [id, id.toUpperCase()] },
      'body.programIds[1] must match pattern "^[0-9a-f]{24}$"',
    ],
    ['a numeric program id', { ...ok, programIds: [1] }, 'body.programIds[0] must be string'],
    ['100 program ids', { ...ok, programIds: Array(100).fill(id) }, undefined],
    [
      '101 program ids',
      { ...ok, programIds: Array(101).fill(id) },
      'body.programIds must NOT have more than 100 items',
    ],
    [
      '101 malformed ids: the count',
      { ...ok, programIds: Array(101).fill('x') },
      'body.programIds must NOT have more than 100 items',
    ],
    [
      'mode live',
      { ...ok, verificationModeInclusion: 'live' },
      'body.verificationModeInclusion must be one of ALL, LIVE, TEST',
    ],
    [
      'a numeric mode',
      { ...ok, verificationModeInclusion: 1 },
      'body.verificationModeInclusion must be string',
    ],
    [
      'a null mode',
      { ...ok, verificationModeInclusion: null },
      'body.verificationModeInclusion must be string',
    ],
  ])('%s: %j', (_, body, expected) => {
    expect(zodSays(ReportRequest, body)).toEqual(expected);
    expect(ajvSaidBefore('ReportRequest', body)).toEqual(expected);
  });

  it('applies the defaults the document states, and types the checked body', () => {
    const checked = checkBody(ReportRequest, { startDate: '2025-01-01', endDate: '2025-01-31' });
    const body: ReportRequestBody | undefined = checked.ok ? checked.value : undefined;
    expect(body).toEqual({
      startDate: '2025-01-01',
      endDate: '2025-01-31',
      format: 'CSV',
      isPiiIncluded: false,
      verificationModeInclusion: 'ALL',
    });
  });
});

it('the report status schema describes what the routes answer', () => {
  const status = {
    id: 'a1'.repeat(12),
    status: 'PENDING',
    statusUrl: 'https://eligo.test/rest/v2/report/x/status',
    retrievalUrl: null,
    created: 1740823200000,
  };
  expect(ReportStatus.safeParse(status).success).toBe(true);
  expect(
    ReportStatus.safeParse({ ...status, retrievalUrl: 'https://eligo.test/rest/v2/report/x' }).success,
  ).toBe(true);
  expect(ReportStatus.safeParse({ ...status, status: 'DONE' }).success).toBe(false);
});
