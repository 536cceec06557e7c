import { organizationsOrganizationV1 } from '@eligo/proto';
import { ImportFileError } from './import-file';
import { csvColumns, csvRecordToRow, jsonLineToRow } from './organization-rows';

const input = (o: Partial<organizationsOrganizationV1.OrganizationInput>) =>
  organizationsOrganizationV1.OrganizationInput.fromPartial(o);
const stanford = { externalId: 'su-1', name: 'Stanford University', type: 'UNIVERSITY', country: 'US' };

describe('the CSV header', () => {
  it('names the columns in any order and case', () => {
    expect(csvColumns(['Name', 'externalid', ' COUNTRY ', 'type', 'Domains'])).toEqual([
      'name',
      'externalId',
      'country',
      'type',
      'domains',
    ]);
  });

  it.each([
    [
      'an unknown column, naming it',
      ['externalId', 'name', 'type', 'country', 'zip'],
      /unknown column "zip"/,
    ],
    ['a column given twice', ['externalId', 'name', 'type', 'country', 'Name'], /column name appears twice/],
    ['missing required columns', ['externalId', 'name', 'city'], /lacks required column\(s\) type, country/],
  ])('refuses the file for %s', (_name, header, message) => {
    expect(() => csvColumns(header)).toThrow(ImportFileError);
    expect(() => csvColumns(header)).toThrow(message);
  });
});

describe('CSV record -> row', () => {
  it('splits domains at ";", dropping blanks, and keeps the line', () => {
    expect(
      csvRecordToRow(
        { ...stanford, domains: 'stanford.edu; cs.stanford.edu;;', city: 'Stanford', state: '' },
        7,
      ),
    ).toEqual({
      line: 7,
      organization: input({
        externalKey: 'su-1',
        name: 'Stanford University',
        type: 'UNIVERSITY',
        country: 'US',
        domains: ['stanford.edu', 'cs.stanford.edu'],
        city: 'Stanford',
      }),
    });
  });

  it('treats absent optional columns as empty', () => {
    expect(csvRecordToRow(stanford, 2)).toMatchObject({
      organization: { domains: [], city: '', state: '', loginUrl: '' },
    });
  });

  it('carries the loginUrl column (values are checked by the service)', () => {
    expect(csvColumns(['externalId', 'name', 'type', 'country', 'LoginURL'])).toContain('loginUrl');
    expect(csvRecordToRow({ ...stanford, loginUrl: 'https://login.stanford.edu/' }, 2)).toMatchObject({
      organization: { loginUrl: 'https://login.stanford.edu/' },
    });
    expect(csvRecordToRow({ ...stanford, loginUrl: 'not a url' }, 3)).toMatchObject({
      organization: { loginUrl: 'not a url' },
    });
  });

  it('rejects a row without a required value', () => {
    expect(csvRecordToRow({ ...stanford, name: '' }, 3)).toEqual({ line: 3, rejection: 'name is required' });
  });
});

describe('NDJSON line -> row', () => {
  it('reads an object with the same keys, domains as an array', () => {
    const line = JSON.stringify({ ...stanford, domains: ['stanford.edu'], city: null, state: 'CA' });
    expect(jsonLineToRow(line, 4)).toEqual({
      line: 4,
      organization: input({
        externalKey: 'su-1',
        name: 'Stanford University',
        type: 'UNIVERSITY',
        country: 'US',
        domains: ['stanford.edu'],
        state: 'CA',
      }),
    });
  });

  it('reads loginUrl, null as none, and refuses one that is not a string', () => {
    const sso = 'https://login.stanford.edu/idp';
    expect(jsonLineToRow(JSON.stringify({ ...stanford, loginUrl: sso }), 5)).toMatchObject({
      organization: { loginUrl: sso },
    });
    expect(jsonLineToRow(JSON.stringify({ ...stanford, loginUrl: null }), 6)).toMatchObject({
      organization: { loginUrl: '' },
    });
    expect(jsonLineToRow(JSON.stringify({ ...stanford, loginUrl: 1 }), 7)).toEqual({
      line: 7,
      rejection: 'loginUrl must be a string',
    });
  });

  it('skips blank lines', () => {
    expect(jsonLineToRow('', 1)).toBeUndefined();
    expect(jsonLineToRow('  \t', 2)).toBeUndefined();
  });

  it.each([
    ['invalid JSON', '{"name": ', 'not valid JSON'],
    ['an array', '[1,2]', 'not a JSON object'],
    ['null', 'null', 'not a JSON object'],
    ['a string', '"Stanford"', 'not a JSON object'],
    [
      'an unknown key',
      JSON.stringify({ ...stanford, zip: '94305' }),
      'unexpected property zip (allowed: externalId, name, type, country, domains, city, state, loginUrl)',
    ],
    ['a number for a string', JSON.stringify({ ...stanford, externalId: 17 }), 'externalId must be a string'],
    [
      'domains as a string',
      JSON.stringify({ ...stanford, domains: 'a.edu' }),
      'domains must be an array of strings',
    ],
    [
      'a number among domains',
      JSON.stringify({ ...stanford, domains: ['a.edu', 3] }),
      'domains must be an array of strings',
    ],
    ['a missing required key', JSON.stringify({ ...stanford, country: undefined }), 'country is required'],
  ])('rejects %s with its line', (_name, text, rejection) => {
    expect(jsonLineToRow(text, 9)).toEqual({ line: 9, rejection });
  });
});
