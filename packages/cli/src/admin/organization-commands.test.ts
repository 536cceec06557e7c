import { importContentType } from './organization-commands';

describe('import format', () => {
  it.each([
    ['orgs.csv', undefined, 'text/csv'],
    ['ORGS.CSV', undefined, 'text/csv'],
    ['orgs.ndjson', undefined, 'application/x-ndjson'],
    ['orgs.jsonl', undefined, 'application/x-ndjson'],
    ['orgs.txt', 'csv', 'text/csv'],
    ['orgs.csv', 'ndjson', 'application/x-ndjson'],
  ])('%s with --format %s is sent as %s', (file, format, type) => {
    expect(importContentType(file, format)).toBe(type);
  });

  it('refuses a file whose format it cannot tell', () => {
    expect(() => importContentType('orgs.txt', undefined)).toThrow(/--format/);
    expect(() => importContentType('orgs', undefined)).toThrow(/cannot tell/);
  });
});
