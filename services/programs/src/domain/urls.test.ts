import { urlProblem } from './urls';

describe('urlProblem', () => {
  it.each<[string, boolean, string | undefined]>([
    ['https://example.com', false, undefined],
    ['http://example.com:8080/a/b?c=d', false, undefined],
    ['https://example.com/page#section', true, undefined],
    ['https://example.com/page#section', false, 'must not contain a fragment (#...)'],
    ['', true, 'must not be empty'],
    ['/relative', true, 'must be an absolute http or https URL'],
    ['example.com', true, 'must be an absolute http or https URL'],
    ['javascript:alert(1)', true, 'must be an absolute http or https URL'],
    ['ftp://example.com', true, 'must be an absolute http or https URL'],
    ['https://user:pass@example.com', true, 'must not contain a user name or password'],
    ['https://user@example.com', true, 'must not contain a user name or password'],
    [' https://example.com', true, 'must not contain whitespace'],
    ['https://exa mple.com', true, 'must not contain whitespace'],
    ['https://example.com/\u0000', true, 'must not contain whitespace'],
    [`https://example.com/${'a'.repeat(2028)}`, true, undefined],
    [`https://example.com/${'a'.repeat(2029)}`, true, 'must be at most 2048 characters'],
  ])('%j (fragment allowed: %s) -> %j', (url, allowFragment, problem) => {
    expect(urlProblem(url, { allowFragment })).toBe(problem);
  });
});
