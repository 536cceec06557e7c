import { checkOrganizationInput, type OrganizationInput } from './organization-input';
import { Problems } from './problems';

const valid: OrganizationInput = {
  externalKey: 'crm:42',
  name: '  Universität Zürich ',
  type: 'university',
  country: 'ch',
  domains: ['UZH.ch', 'www.uzh.ch.', 'uzh.ch'],
  city: 'Zürich',
  state: '',
  loginUrl: ' https://login.uzh.ch/sso?app=eligo ',
};

function check(overrides: Partial<OrganizationInput>) {
  const problems = new Problems();
  const draft = checkOrganizationInput({ ...valid, ...overrides }, problems);
  return { draft, message: problems.message() };
}

describe('checkOrganizationInput', () => {
  it('normalises a valid organization', () => {
    expect(check({})).toEqual({
      draft: {
        externalKey: 'crm:42',
        name: 'Universität Zürich',
        searchName: 'universitat zurich',
        type: 'UNIVERSITY',
        country: 'CH',
        domains: ['uzh.ch', 'www.uzh.ch'],
        city: 'Zürich',
        state: '',
        loginUrl: 'https://login.uzh.ch/sso?app=eligo',
      },
      message: '',
    });
  });

  it.each([
    [{ externalKey: '' }, 'externalKey: is required'],
    [{ externalKey: 'k'.repeat(201) }, 'externalKey: must be at most 200 characters'],
    [{ externalKey: 'a\nb' }, 'externalKey: must not contain control characters'],
    [{ name: '   ' }, 'name: is required'],
    [{ name: 'n'.repeat(201) }, 'name: must be at most 200 characters'],
    [{ name: '---' }, 'name: must contain a letter or digit'],
    [{ type: '' }, 'type: is required'],
    [{ type: 'SCHOOL' }, 'type: "SCHOOL" is not an organization type'],
    [{ country: '' }, 'country: is required'],
    [{ country: 'UK' }, 'country: "UK" is not an ISO 3166-1 alpha-2 country code'],
    [
      { domains: ['foo.notatld'] },
      'domains: "foo.notatld" foo.notatld does not end in a known top-level domain',
    ],
    [{ domains: ['localhost'] }, 'domains: "localhost" must contain a period (e.g. example.edu)'],
    [{ domains: Array.from({ length: 21 }, (_, i) => `d${i}.edu`) }, 'domains: at most 20 domains'],
    [{ city: 'c'.repeat(101) }, 'city: must be at most 100 characters'],
    [{ state: 's'.repeat(101) }, 'state: must be at most 100 characters'],
    [{ loginUrl: 'http://login.uzh.ch' }, 'loginUrl: must be an absolute https URL (https://...)'],
    [{ loginUrl: 'login.uzh.ch/sso' }, 'loginUrl: must be an absolute https URL (https://...)'],
    [{ loginUrl: 'javascript:alert(1)' }, 'loginUrl: must be an absolute https URL (https://...)'],
    [{ loginUrl: 'https://user:pw@login.uzh.ch' }, 'loginUrl: must be an absolute https URL (https://...)'],
    [{ loginUrl: 'https://login uzh.ch' }, 'loginUrl: must be an absolute https URL (https://...)'],
    [{ loginUrl: `https://login.uzh.ch/${'p'.repeat(2048)}` }, 'loginUrl: must be at most 2048 characters'],
  ])('reports %j as %j', (overrides, message) => {
    expect(check(overrides).message).toBe(message);
  });

  it('takes an empty login URL for none, and one of exactly 2048 characters', () => {
    expect(check({ loginUrl: '  ' })).toMatchObject({ draft: { loginUrl: '' }, message: '' });
    const longest = `https://login.uzh.ch/${'p'.repeat(2048 - 'https://login.uzh.ch/'.length)}`;
    expect(check({ loginUrl: longest })).toMatchObject({ draft: { loginUrl: longest }, message: '' });
  });

  it('names every problem at once', () => {
    expect(check({ name: '', type: 'x', country: 'zz' }).message).toBe(
      'name: is required; type: "x" is not an organization type; country: "zz" is not an ISO 3166-1 alpha-2 country code',
    );
  });
});
