import { charLength, CONTROL_CHARACTERS, type Problems } from './problems';

/**
 * The eligibility rule of an organization's single sign-on, over the claims its OpenID provider gives about the
 * person who signed in (docs/operations.md, "Single sign-on with an organization"). Pure: no I/O.
 */

/** Holds when the claim (a string or an array of strings) contains one of `anyOf`, compared case-insensitively. */
export interface ClaimRule {
  claim: string;
  anyOf: readonly string[];
}

/**
 * Eligible when every claim rule holds and, with `emailDomainInOrganization`, the `email` claim (not said to be
 * unverified) is at one of the organization's domains or a subdomain of one.
 */
export interface SsoRule {
  claims: readonly ClaimRule[];
  emailDomainInOrganization: boolean;
}

/** The claims of the ID token (and of the UserInfo answer when it was read), as the provider gave them. */
export type Claims = Readonly<Record<string, unknown>>;

/** The verdict, with a reason in our words: it names a configured claim at most, never a claim's value. */
export interface RuleVerdict {
  eligible: boolean;
  reason: string;
}

export const MAX_CLAIM_RULES = 10;
export const MAX_CLAIM_VALUES = 20;
export const MAX_CLAIM_TEXT = 256;

/**
 * Checks a configured rule, reporting each problem under `rule.` (rule.claims[0].anyOf[2]: ...), and returns
 * it as stored. A rule that checks nothing would let anyone with an account at the provider through, so it is
 * refused.
 */
export function checkSsoRule(problems: Problems, rule: SsoRule | undefined): SsoRule {
  if (!rule) {
    problems.add('rule', 'is required');
    return { claims: [], emailDomainInOrganization: false };
  }
  if (rule.claims.length > MAX_CLAIM_RULES)
    problems.add('rule.claims', `must have at most ${MAX_CLAIM_RULES} claim rules`);
  rule.claims.slice(0, MAX_CLAIM_RULES).forEach((c, i) => {
    const at = `rule.claims[${i}]`;
    textProblem(problems, `${at}.claim`, c.claim);
    if (c.anyOf.length === 0) problems.add(`${at}.anyOf`, 'must have at least one value');
    else if (c.anyOf.length > MAX_CLAIM_VALUES)
      problems.add(`${at}.anyOf`, `must have at most ${MAX_CLAIM_VALUES} values`);
    c.anyOf.slice(0, MAX_CLAIM_VALUES).forEach((v, j) => textProblem(problems, `${at}.anyOf[${j}]`, v));
  });
  if (rule.claims.length === 0 && !rule.emailDomainInOrganization)
    problems.add('rule', 'must check something: give at least one claim rule, or emailDomainInOrganization');
  return {
    claims: rule.claims.map((c) => ({ claim: c.claim, anyOf: [...c.anyOf] })),
    emailDomainInOrganization: rule.emailDomainInOrganization,
  };
}

function textProblem(problems: Problems, field: string, value: string): void {
  const length = charLength(value);
  if (length === 0 || length > MAX_CLAIM_TEXT)
    problems.add(field, `must be 1 to ${MAX_CLAIM_TEXT} characters`);
  else if (CONTROL_CHARACTERS.test(value)) problems.add(field, 'must not contain control characters');
}

/** The claims the rule reads: when the ID token lacks one of them, the UserInfo answer is asked for it. */
export function claimsRead(rule: SsoRule): string[] {
  const names = rule.claims.map((c) => c.claim);
  if (rule.emailDomainInOrganization) names.push('email');
  return [...new Set(names)];
}

/** Applies the rule; `organizationDomains` are the organization's catalog domains (lower-case host names). */
export function evaluateSsoRule(
  rule: SsoRule,
  claims: Claims,
  organizationDomains: readonly string[],
): RuleVerdict {
  for (const { claim, anyOf } of rule.claims) {
    const values = stringsOf(claimOf(claims, claim));
    if (values === undefined) return ineligible(`the provider gave no claim ${claim} (a string or strings)`);
    const accepted = new Set(anyOf.map(caseFold));
    if (!values.some((v) => accepted.has(caseFold(v))))
      return ineligible(`the claim ${claim} has none of the accepted values`);
  }
  if (rule.emailDomainInOrganization) {
    const email = claimOf(claims, 'email');
    const at = typeof email === 'string' ? email.lastIndexOf('@') : -1;
    if (typeof email !== 'string' || at <= 0)
      return ineligible('the provider gave no email address (ask for the email scope)');
    const verified = claimOf(claims, 'email_verified');
    // Some providers send the flag as a string.
    if (verified === false || verified === 'false')
      return ineligible('the provider says the email address is not verified');
    const domain = hostOf(email.slice(at + 1));
    if (organizationDomains.length === 0) return ineligible('the organization has no domains in the catalog');
    if (!organizationDomains.some((d) => domain === hostOf(d) || domain.endsWith(`.${hostOf(d)}`)))
      return ineligible("the email address is not at one of the organization's domains");
  }
  return { eligible: true, reason: "the organization's rule holds" };
}

const ineligible = (reason: string): RuleVerdict => ({ eligible: false, reason });

/** Own properties only: a claim named like a property of Object.prototype is not there unless given. */
function claimOf(claims: Claims, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(claims, name) ? claims[name] : undefined;
}

/** A string claim as one value, an array of strings as its values; anything else as undefined. */
function stringsOf(value: unknown): readonly string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return undefined;
}

/** Case-insensitive comparison: the same Unicode form, lower case. */
const caseFold = (text: string) => text.normalize('NFC').toLowerCase();

/** A host name as compared: lower case, without a final dot. */
const hostOf = (text: string) => text.trim().toLowerCase().replace(/\.$/, '');
