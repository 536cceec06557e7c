import { isDomainError, type DomainError } from '@eligo/runtime';
import {
  checkAddSchoolRequest,
  checkDeclineReason,
  checkDomainSearch,
  checkNameSearch,
  type AddSchoolRequestInput,
} from './add-school';

const programId = 'a'.repeat(24);
const request: AddSchoolRequestInput = {
  programId,
  firstName: ' Ada ',
  lastName: 'Lovelace',
  email: 'Ada@Example.EDU',
  schoolName: 'New School',
  schoolDomain: 'NewSchool.edu',
  schoolCountry: 'us',
};

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (isDomainError(err)) return err;
    throw err;
  }
  throw new Error('expected a domain error');
}

describe('checkAddSchoolRequest', () => {
  it('normalises a valid request', () => {
    expect(checkAddSchoolRequest(request)).toEqual({
      programId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.edu',
      schoolName: 'New School',
      schoolDomain: 'newschool.edu',
      schoolCountry: 'US',
      trackingId: '',
    });
  });

  it("keeps the client's tracking id as given: 1 to 256 characters without control characters", () => {
    expect(checkAddSchoolRequest({ ...request, trackingId: ' crm 42 ' }).trackingId).toBe(' crm 42 ');
    expect(checkAddSchoolRequest({ ...request, trackingId: '𠮷'.repeat(256) }).trackingId).toHaveLength(512);
  });

  it.each<[Partial<AddSchoolRequestInput>, string[], string]>([
    [{ programId: '' }, ['invalidRequest'], 'programId: is required'],
    [{ programId: 'nope' }, ['invalidRequest'], 'programId: is not a valid program id'],
    [{ firstName: '' }, ['invalidRequest'], 'firstName: is required'],
    [{ lastName: 'x'.repeat(101) }, ['invalidRequest'], 'lastName: must be at most 100 characters'],
    [{ email: '' }, ['invalidRequest'], 'email: is required'],
    [{ email: 'not-an-email' }, ['invalidEmail'], 'email: is not a valid email address'],
    [{ schoolName: ' ' }, ['invalidRequest'], 'schoolName: is required'],
    [{ schoolDomain: '' }, ['invalidRequest'], 'schoolDomain: is required'],
    [{ schoolDomain: 'newschool' }, ['invalidRequest'], 'schoolDomain: must contain a period'],
    [{ schoolDomain: 'foo.notatld' }, ['invalidRequest'], 'does not end in a known top-level domain'],
    [{ schoolCountry: '' }, ['invalidRequest'], 'schoolCountry: is required'],
    [{ schoolCountry: 'XX' }, ['invalidRequest'], 'schoolCountry: "XX" is not an ISO 3166-1 alpha-2'],
    [
      { email: 'x', schoolCountry: '' },
      ['invalidEmail', 'invalidRequest'],
      'email: is not a valid email address; schoolCountry: is required',
    ],
    [{ trackingId: 'x'.repeat(257) }, ['invalidRequest'], 'trackingId: must be at most 256 characters'],
    [{ trackingId: 'a\nb' }, ['invalidRequest'], 'trackingId: must not contain control characters'],
  ])('refuses %j with %j', (overrides, errorIds, message) => {
    const err = thrown(() => checkAddSchoolRequest({ ...request, ...overrides }));
    expect(err.kind).toBe('invalidArgument');
    expect(err.errorIds).toEqual(errorIds);
    expect(err.message).toContain(message);
  });
});

describe('add-school searches', () => {
  it('normalises a domain search', () => {
    expect(checkDomainSearch({ programId, schoolDomain: ' CS.Stanford.edu', schoolCountry: 'us' })).toEqual({
      programId,
      host: 'cs.stanford.edu',
      country: 'US',
    });
  });

  it('folds a name search', () => {
    expect(checkNameSearch({ programId, schoolName: 'Universität Zürich', schoolCountry: 'CH' })).toEqual({
      programId,
      query: 'universitat zurich',
      country: 'CH',
    });
  });

  it.each([
    [{ programId, schoolDomain: '', schoolCountry: 'US' }, 'schoolDomain: is required'],
    [{ programId, schoolDomain: 'stanford.edu', schoolCountry: '' }, 'schoolCountry: is required'],
    [{ programId: '', schoolDomain: 'stanford.edu', schoolCountry: 'US' }, 'programId: is required'],
  ])('refuses a domain search missing a field (%j)', (input, message) => {
    const err = thrown(() => checkDomainSearch(input));
    expect([err.kind, err.errorIds, err.message]).toEqual(['invalidArgument', ['invalidRequest'], message]);
  });

  it.each([
    ['', 'schoolName: is required'],
    ['x'.repeat(201), 'schoolName: must be at most 200 characters'],
  ])('refuses the school name %j', (schoolName, message) => {
    const err = thrown(() => checkNameSearch({ programId, schoolName, schoolCountry: 'US' }));
    expect(err.message).toBe(message);
  });
});

describe('checkDeclineReason', () => {
  it('accepts up to 500 characters and several lines', () => {
    expect(checkDeclineReason(' Not a school.\nSee the website. ')).toBe('Not a school.\nSee the website.');
    expect(checkDeclineReason('r'.repeat(500))).toHaveLength(500);
  });
  it('refuses a longer reason', () => {
    expect(thrown(() => checkDeclineReason('r'.repeat(501))).message).toBe(
      'reason: must be at most 500 characters',
    );
  });
});
