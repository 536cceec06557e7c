import { DomainError } from '@eligo/runtime';
import { Problems } from './problems';
import { checkSsoRule, claimsRead, evaluateSsoRule, type Claims, type SsoRule } from './sso-rule';

const student: SsoRule = {
  claims: [{ claim: 'eduPersonAffiliation', anyOf: ['student'] }],
  emailDomainInOrganization: false,
};
const byEmail: SsoRule = { claims: [], emailDomainInOrganization: true };
const domains = ['stanford.edu', 'cs.ox.ac.uk'];

describe('evaluateSsoRule', () => {
  it.each<[string, SsoRule, Claims, boolean, string]>([
    ['a string claim', student, { eduPersonAffiliation: 'student' }, true, "the organization's rule holds"],
    [
      'an array claim',
      student,
      { eduPersonAffiliation: ['member', 'student'] },
      true,
      "the organization's rule holds",
    ],
    [
      'in another case',
      student,
      { eduPersonAffiliation: ['STUDENT'] },
      true,
      "the organization's rule holds",
    ],
    [
      'an accepted value in another case',
      { ...student, claims: [{ claim: 'eduPersonAffiliation', anyOf: ['Faculty', 'StUdEnT'] }] },
      { eduPersonAffiliation: 'student' },
      true,
      "the organization's rule holds",
    ],
    [
      'none of the values',
      student,
      { eduPersonAffiliation: ['staff', 'alum'] },
      false,
      'the claim eduPersonAffiliation has none of the accepted values',
    ],
    [
      'a value that only contains the accepted one',
      student,
      { eduPersonAffiliation: 'graduate-student' },
      false,
      'the claim eduPersonAffiliation has none of the accepted values',
    ],
    [
      'the claim missing',
      student,
      { email: 'a@stanford.edu' },
      false,
      'the provider gave no claim eduPersonAffiliation (a string or strings)',
    ],
    [
      'a claim of another type',
      student,
      { eduPersonAffiliation: { role: 'student' } },
      false,
      'the provider gave no claim eduPersonAffiliation (a string or strings)',
    ],
    [
      'an array holding a number',
      student,
      { eduPersonAffiliation: ['student', 3] },
      false,
      'the provider gave no claim eduPersonAffiliation (a string or strings)',
    ],
    [
      "a claim named like Object.prototype's own",
      {
        claims: [{ claim: 'constructor', anyOf: ['function Object() { [native code] }'] }],
        emailDomainInOrganization: false,
      },
      {},
      false,
      'the provider gave no claim constructor (a string or strings)',
    ],
    [
      'an email at the domain',
      byEmail,
      { email: 'jane@stanford.edu', email_verified: true },
      true,
      "the organization's rule holds",
    ],
    [
      'an email at a subdomain',
      byEmail,
      { email: 'jane@cs.stanford.edu' },
      true,
      "the organization's rule holds",
    ],
    ['an email in upper case', byEmail, { email: 'Jane@CS.Ox.AC.UK' }, true, "the organization's rule holds"],
    [
      'an email at a look-alike domain',
      byEmail,
      { email: 'jane@evilstanford.edu' },
      false,
      "the email address is not at one of the organization's domains",
    ],
    [
      'an email at a domain that ends like one',
      byEmail,
      { email: 'jane@stanford.edu.example.com' },
      false,
      "the email address is not at one of the organization's domains",
    ],
    [
      'an unverified email',
      byEmail,
      { email: 'jane@stanford.edu', email_verified: false },
      false,
      'the provider says the email address is not verified',
    ],
    [
      'an email unverified as a string',
      byEmail,
      { email: 'jane@stanford.edu', email_verified: 'false' },
      false,
      'the provider says the email address is not verified',
    ],
    [
      'no email',
      byEmail,
      { sub: 'x' },
      false,
      'the provider gave no email address (ask for the email scope)',
    ],
    [
      'an email without a local part',
      byEmail,
      { email: '@stanford.edu' },
      false,
      'the provider gave no email address (ask for the email scope)',
    ],
    [
      'every claim rule and the email',
      {
        claims: [
          { claim: 'eduPersonAffiliation', anyOf: ['student'] },
          { claim: 'groups', anyOf: ['enrolled'] },
        ],
        emailDomainInOrganization: true,
      },
      { eduPersonAffiliation: 'student', groups: ['Enrolled'], email: 'j@stanford.edu' },
      true,
      "the organization's rule holds",
    ],
    [
      'one claim rule of two failing',
      {
        claims: [
          { claim: 'eduPersonAffiliation', anyOf: ['student'] },
          { claim: 'groups', anyOf: ['enrolled'] },
        ],
        emailDomainInOrganization: false,
      },
      { eduPersonAffiliation: 'student', groups: ['alumni'] },
      false,
      'the claim groups has none of the accepted values',
    ],
    [
      'the claims holding, the email not',
      { ...student, emailDomainInOrganization: true },
      { eduPersonAffiliation: 'student', email: 'j@gmail.com' },
      false,
      "the email address is not at one of the organization's domains",
    ],
  ])('%s', (_name, rule, claims, eligible, reason) => {
    expect(evaluateSsoRule(rule, claims, domains)).toEqual({ eligible, reason });
  });

  it('refuses the email rule for an organization without domains', () => {
    expect(evaluateSsoRule(byEmail, { email: 'jane@stanford.edu' }, [])).toEqual({
      eligible: false,
      reason: 'the organization has no domains in the catalog',
    });
  });

  it('never repeats a claim value in its reason', () => {
    const verdict = evaluateSsoRule(student, { eduPersonAffiliation: 'secret-value' }, domains);
    expect(verdict.reason).not.toContain('secret-value');
  });
});

describe('checkSsoRule', () => {
  const check = (rule: SsoRule | undefined) => {
    const problems = new Problems();
    const checked = checkSsoRule(problems, rule);
    try {
      problems.throwIfAny();
    } catch (err) {
      return (err as DomainError).message;
    }
    return checked;
  };

  it('takes claim rules, the email rule, or both', () => {
    expect(check(student)).toEqual(student);
    expect(check(byEmail)).toEqual(byEmail);
  });

  it('refuses an empty rule: a sign-on must prove something', () => {
    expect(check({ claims: [], emailDomainInOrganization: false })).toBe(
      'rule: must check something: give at least one claim rule, or emailDomainInOrganization',
    );
    expect(check(undefined)).toBe('rule: is required');
  });

  it.each<[SsoRule, string]>([
    [
      { claims: [{ claim: '', anyOf: ['x'] }], emailDomainInOrganization: false },
      'rule.claims[0].claim: must be 1 to 256 characters',
    ],
    [
      { claims: [{ claim: 'a\u0000', anyOf: ['x'] }], emailDomainInOrganization: false },
      'rule.claims[0].claim: must not contain control characters',
    ],
    [
      { claims: [{ claim: 'groups', anyOf: [] }], emailDomainInOrganization: false },
      'rule.claims[0].anyOf: must have at least one value',
    ],
    [
      { claims: [{ claim: 'groups', anyOf: Array(21).fill('x') }], emailDomainInOrganization: false },
      'rule.claims[0].anyOf: must have at most 20 values',
    ],
    [
      { claims: [{ claim: 'groups', anyOf: ['ok', 'x'.repeat(257)] }], emailDomainInOrganization: false },
      'rule.claims[0].anyOf[1]: must be 1 to 256 characters',
    ],
    [
      { claims: Array(11).fill({ claim: 'groups', anyOf: ['x'] }), emailDomainInOrganization: false },
      'rule.claims: must have at most 10 claim rules',
    ],
  ])('refuses %j', (rule, message) => {
    expect(check(rule)).toBe(message);
  });
});

describe('claimsRead', () => {
  it('names the claims the rule reads, email for the email rule', () => {
    expect(claimsRead({ ...student, emailDomainInOrganization: true })).toEqual([
      'eduPersonAffiliation',
      'email',
    ]);
    expect(claimsRead(byEmail)).toEqual(['email']);
  });
});
