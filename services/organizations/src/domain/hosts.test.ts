import { domainCandidates, parseHost } from './hosts';

describe('parseHost', () => {
  it.each([
    ['stanford.edu', 'stanford.edu'],
    ['  CS.Stanford.EDU ', 'cs.stanford.edu'],
    ['ox.ac.uk', 'ox.ac.uk'],
    ['xn--80ak6aa92e.com', 'xn--80ak6aa92e.com'],
    ['my-school.org', 'my-school.org'],
  ])('accepts %j as %j', (raw, host) => {
    expect(parseHost(raw)).toEqual({ host });
  });

  it.each([
    ['', 'is required'],
    ['stanford', 'must contain a period'],
    ['foo.notatld', 'does not end in a known top-level domain'],
    ['ac.uk', 'does not end in a known top-level domain'],
    ['https://stanford.edu', 'must be a host name'],
    ['stanford.edu/', 'must be a host name'],
    ['stanford.edu.', 'must be a host name'],
    ['-bad.edu', 'must be a host name'],
    ['a..edu', 'must be a host name'],
    ['exa mple.edu', 'must be a host name'],
    ['192.168.0.1', 'does not end in a known top-level domain'],
    [`${'a'.repeat(250)}.edu`, 'must be at most 253 characters'],
  ])('refuses %j (%s)', (raw, problem) => {
    const result = parseHost(raw);
    expect('problem' in result && result.problem).toContain(problem);
  });
});

describe('domainCandidates', () => {
  it.each([
    ['stanford.edu', ['stanford.edu']],
    ['cs.stanford.edu', ['cs.stanford.edu', 'stanford.edu']],
    ['a.b.ox.ac.uk', ['a.b.ox.ac.uk', 'b.ox.ac.uk', 'ox.ac.uk']],
  ])('%j -> %j', (host, expected) => {
    expect(domainCandidates(host)).toEqual(expected);
  });
});
