import isURL from 'validator/lib/isURL';
import { normaliseCountry } from './countries';
import { fold } from './fold';
import { parseHost } from './hosts';
import { isOrganizationType, type OrganizationDraft } from './organization';
import { CONTROL_CHARACTERS, charLength, optionalText, Problems, requiredText } from './problems';

/** What an import row or an accepted add-school request supplies (OrganizationInput of the contract). */
export interface OrganizationInput {
  externalKey: string;
  name: string;
  type: string;
  country: string;
  domains: readonly string[];
  city: string;
  state: string;
  /** An absolute https URL, or '' for none. */
  loginUrl: string;
}

export const MAX_EXTERNAL_KEY_LENGTH = 200;
export const MAX_NAME_LENGTH = 200;
export const MAX_DOMAINS = 20;
export const MAX_PLACE_LENGTH = 100;
export const MAX_LOGIN_URL_LENGTH = 2048;

/**
 * Checks an organization and normalises it (type and country upper case, domains lower case without a
 * trailing dot and without repeats). Every problem is reported, each naming its field; the draft is only
 * meaningful when `problems` stays empty.
 */
export function checkOrganizationInput(input: OrganizationInput, problems: Problems): OrganizationDraft {
  const externalKey = input.externalKey;
  if (externalKey.length === 0) problems.add('externalKey', 'is required');
  else if (charLength(externalKey) > MAX_EXTERNAL_KEY_LENGTH)
    problems.add('externalKey', `must be at most ${MAX_EXTERNAL_KEY_LENGTH} characters`);
  else if (CONTROL_CHARACTERS.test(externalKey))
    problems.add('externalKey', 'must not contain control characters');

  const name = requiredText(problems, 'name', input.name, MAX_NAME_LENGTH);
  const searchName = fold(name);
  // A name of symbols only could never be found by a search.
  if (name.length > 0 && searchName.length === 0) problems.add('name', 'must contain a letter or digit');

  const type = input.type.trim().toUpperCase();
  if (type.length === 0) problems.add('type', 'is required');
  else if (!isOrganizationType(type))
    problems.add('type', `${JSON.stringify(input.type)} is not an organization type`);

  const country = normaliseCountry(input.country);
  if (input.country.trim() === '') problems.add('country', 'is required');
  else if (country === undefined)
    problems.add('country', `${JSON.stringify(input.country)} is not an ISO 3166-1 alpha-2 country code`);

  const domains: string[] = [];
  if (input.domains.length > MAX_DOMAINS) problems.add('domains', `at most ${MAX_DOMAINS} domains`);
  else {
    for (const raw of input.domains) {
      const parsed = parseHost(raw.trim().replace(/\.$/, ''));
      if ('problem' in parsed) problems.add('domains', `${JSON.stringify(raw)} ${parsed.problem}`);
      else if (!domains.includes(parsed.host)) domains.push(parsed.host);
    }
  }

  const city = optionalText(problems, 'city', input.city, MAX_PLACE_LENGTH);
  const state = optionalText(problems, 'state', input.state, MAX_PLACE_LENGTH);
  const loginUrl = input.loginUrl.trim();
  const loginUrlProblem = checkLoginUrl(loginUrl);
  if (loginUrlProblem) problems.add('loginUrl', loginUrlProblem);
  return {
    externalKey,
    name,
    searchName,
    type: type as OrganizationDraft['type'],
    country: country ?? '',
    domains,
    city,
    state,
    loginUrl,
  };
}

/**
 * '' (none) or an absolute https URL a browser is sent to: no other scheme (the sso step redirects there),
 * no user name or password (it would be shown in clear to operators and in events).
 */
function checkLoginUrl(url: string): string | undefined {
  if (url === '') return undefined;
  if (url.length > MAX_LOGIN_URL_LENGTH) return `must be at most ${MAX_LOGIN_URL_LENGTH} characters`;
  const valid = isURL(url, {
    protocols: ['https'],
    require_protocol: true,
    require_valid_protocol: true,
    require_host: true,
    disallow_auth: true,
    max_allowed_length: MAX_LOGIN_URL_LENGTH,
  });
  return valid ? undefined : 'must be an absolute https URL (https://...)';
}
