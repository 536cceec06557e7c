import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withGatewayAnswers } from '../src/openapi/gateway-answers';
import { withIdempotencyKey } from '../src/openapi/idempotency';
import { components } from '../src/openapi/components';

type Json = Record<string, unknown>;

/**
 * Test support: the OpenAPI document as the hand-written OpenAPI (openapi/*.paths.ts, openapi/schemas/*)
 * stated it, captured before the endpoints became definitions (endpoints/). The endpoint tests hold the
 * definitions to it: moving an endpoint changed how it is described, not what the document says.
 */
export const documentBefore = withAnswersSince(
  reworded(JSON.parse(readFileSync(join(__dirname, 'fixtures/document-before-definitions.json'), 'utf8'))),
) as { paths: Record<string, Json>; components: { schemas: Record<string, Json>; responses: Json } };

/**
 * Descriptions reworded on purpose since the capture, old text to new, with why in a comment: replaced in the
 * capture wherever they stand, so that the many paths sharing one text stay held to the capture in all else.
 */
function reworded(document: unknown): unknown {
  const texts: Record<string, string> = {
    // The email loop (issue 22) is one more step a submission can lead to.
    'The next step: success (rewardCode), docUpload, collectSocialSecurityNumber or sso. Read currentStep.':
      'The next step: success (rewardCode), docUpload, collectSocialSecurityNumber, sso or emailLoop. Read ' +
      'currentStep.',
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return Object.hasOwn(texts, value) ? texts[value] : value;
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(document);
}

/**
 * Answers the gateway added to every operation since the capture (openapi/gateway-answers.ts), added to the
 * capture's operations: 431, a request line and headers over the HTTP server's 16 KiB limit.
 */
function withAnswersSince(document: unknown): unknown {
  const { paths, components: shared } = document as {
    paths: Record<string, Record<string, { responses?: Json }>>;
    components: { responses: Json };
  };
  shared.responses.RequestHeadTooLarge = components('').responses.RequestHeadTooLarge;
  for (const item of Object.values(paths))
    for (const operation of Object.values(item))
      if (operation.responses)
        operation.responses = {
          ...operation.responses,
          '431': { $ref: '#/components/responses/RequestHeadTooLarge' },
        };
  return document;
}

/**
 * Paths and component schemas whose statement changed on purpose since the capture, with why: every test that
 * holds the definitions to the capture leaves these out (and tests their new statement itself).
 */
export const changedOnPurpose: Readonly<Record<string, string>> = {
  '/programs/{programId}/webhook/deliveries':
    "the staff console: a verificationId filter, one verification's deliveries (endpoints/admin-notifier.ts)",
  WebhookDelivery:
    'refireOf also names the delivery a resend by staff repeats (POST .../deliveries/{deliveryId}/resend)',
  '/messages':
    'email-loop codes (issue 22) are listed beside send-link messages: a verificationId filter, one ' +
    "verification's codes (endpoints/admin-notifier.ts, routes/admin/notifier.test.ts)",
  SendLinkMessage:
    'email-loop codes (issue 22): kind (SEND_LINK, EMAIL_LOOP) and verificationId (null for a send-link ' +
    'message), two more properties, and descriptions that say so',
  '/uploads/{uploadToken}':
    'the file is any bytes: no schema (was type string, which made a JSON object sent as application/json a ' +
    '"schema-violating" body for Schemathesis, answered 410 for a used URL without reading it)',
  ...Object.fromEntries(
    ['ProgramCreateRequest', 'ProgramPatchRequest', 'ProgramConfiguration'].map((name) => [
      name,
      'a new program setting, embedOrigins (the web origins allowed to embed the hosted verification page ' +
        'and to call REST v2 from a browser): one more property, set and answered; and instantMatch (issue ' +
        '22: the instant-match sources of a live program and the HTTP source, its secret write-only)',
    ]),
  ),
  ...Object.fromEntries(
    ['EmployeeSubject', 'MemberSubject'].map((name) => [
      name,
      "the person's number with the customer (employeeId, memberId; issue 22): optional, matched against " +
        "the program's eligibility list; and organizationEmail, the email loop's address: two more properties",
    ]),
  ),
  ...Object.fromEntries(
    [
      'ActiveMilitarySubject',
      'InactiveMilitarySubject',
      'TeacherSubject',
      'FirstResponderSubject',
      'LicensedProfessionalSubject',
      'MedicalProfessionalSubject',
    ].map((name) => [
      name,
      "organizationEmail (issue 22): the person's address at the organization, optional, where the email " +
        'loop mails its code; one more property',
    ]),
  ),
  '/verification/{verificationId}/step/sso':
    "single sign-on with the organization's OpenID provider (issue 22): the redirect goes to the provider " +
    'with a cookie binding the sign-on to the browser; a description, the Set-Cookie header',
  VerificationResponse:
    'canResendEmailLoop (issue 22): with the emailLoop step, whether a new code may be asked for now; one more ' +
    'property',
  StepRecord:
    "the email loop's triggers (submitEmailToken, resendEmailToken, cancelEmailLoop) and single sign-on's " +
    '(finishSso; issue 22): new values of the enum',
  VerificationDetails:
    'verificationMethod names the instant-match source that decided a success: LIST and HTTP_SOURCE besides ' +
    'INSTANT and MANUAL (new values of the enum, issue 22), and says so in a description',
  ...Object.fromEntries(
    ['/programs', '/programs/{programId}'].map((path) => [
      path,
      'a new program setting, embedOrigins: the 400 lists its rule that the schema cannot state (an origin ' +
        'listed twice in two spellings)',
    ]),
  ),
  ...Object.fromEntries(
    ['ThemeInput', 'Theme'].map((name) => [
      name,
      'translations of a theme (intl.locales, by BCP 47 tag): the hosted page picks its texts by ?locale= ' +
        "or the browser's languages (http/page-locale.ts); one more property, set and answered",
    ]),
  ),
  Review:
    'decidedBy names who decided since staff have identities: operator or staff:<staffId> besides staff and ' +
    'test-mode (a pattern instead of the enum; endpoints/admin-reviews.test.ts); the review queue of the ' +
    'staff console adds segment, claimedBy and claimExpiresAt',
  ReviewDetail:
    "the files' links are the admin API's own route (GET /reviews/{reviewId}/files/{documentId}, which " +
    'streams the file decrypted), not short-lived links to the documents process: url says so, expiresAt is null',
  '/reviews':
    'the review queue of the staff console: programId, segment and order filters (endpoints/admin-reviews.test.ts)',
  '/reviews/{reviewId}':
    "the files' links are the admin API's own route and do not expire (the description says so)",
  '/reviews/{reviewId}/decision':
    'claims: the 409 also answers ER [reviewClaimed] while another reviewer holds the review',
  ...Object.fromEntries(
    ['/accounts', '/accounts/{accountId}/tokens'].map((path) => [
      path,
      'a GET beside the POST: the staff console lists accounts and their tokens (the POST is as before; ' +
        'endpoints/admin-account-lists.test.ts)',
    ]),
  ),
};

/**
 * Paths and component schemas the document gained since the capture (new operations, their schemas): the
 * tests that hold the document to the capture leave them out, and check they are served.
 */
export const addedOnPurpose: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      '/programs/{programId}/eligibility-list',
      'EligibilityListRow',
      'EligibilityList',
      'EligibilityListImportResult',
    ].map((name) => [
      name,
      "a program's customer eligibility list: upload, counts, removal (endpoints/admin-eligibility-lists.ts)",
    ]),
  ),
  ...Object.fromEntries(
    [
      '/verification/{verificationId}/step/emailLoop',
      '/verification/{verificationId}/step/emailLoop/retryEmail',
      'EmailTokenRequest',
    ].map((name) => [
      name,
      'the email loop (issue 22): the code mailed to an organization address, entered, sent again or ' +
        'given up (endpoints/verification-steps.ts)',
    ]),
  ),
  ...Object.fromEntries(
    [
      '/organizations/{organizationId}/sso',
      'OrganizationSsoRequest',
      'OrganizationSso',
      'SsoRuleInput',
      'SsoClaimRule',
    ].map((name) => [
      name,
      "an organization's single sign-on: its OpenID client and rule (endpoints/admin-organization-sso.ts)",
    ]),
  ),
  ...Object.fromEntries(
    [
      '/verifications/search',
      '/verifications/{verificationId}/expire',
      '/programs/{programId}/webhook/deliveries/{deliveryId}/resend',
      'VerificationSearchRequest',
      'VerificationSummary',
      'VerificationSearchPage',
    ].map((name) => [
      name,
      'the staff console: the verification search, expiring one, resending a webhook delivery ' +
        '(endpoints/admin-verification-search.ts, admin-verifications.ts, admin-notifier.ts)',
    ]),
  ),
  ...Object.fromEntries(
    ['/reviews/{reviewId}/claim', '/reviews/{reviewId}/files/{documentId}'].map((path) => [
      path,
      "the staff console's review queue: claims with a lease, and a review's files streamed through the " +
        'gateway (endpoints/admin-reviews.ts)',
    ]),
  ),
  ...Object.fromEntries(
    ['/staff', '/staff/{staffId}', '/staff/{staffId}/password', '/audit', '/audit/export'].map((path) => [
      path,
      'staff identities of the admin API and its audit log (endpoints/admin-staff-users.ts, admin-audit.ts)',
    ]),
  ),
  ...Object.fromEntries(
    [
      'StaffRole',
      'StaffCreateRequest',
      'StaffPatchRequest',
      'StaffMember',
      'StaffMemberWithPassword',
      'StaffPage',
      'AuditEntry',
      'AuditPage',
    ].map((name) => [name, 'a schema of the staff identities and the audit log']),
  ),
  ...Object.fromEntries(
    [
      '/accounts/{accountId}',
      '/programs/{programId}/rewardCodes/level',
      '/programs/{programId}/webhook/secret',
    ].map((path) => [
      path,
      'the staff console: an account, a pool level, a webhook secret rotation (endpoints/admin-account-lists.ts, ' +
        'admin-program-lists.ts)',
    ]),
  ),
  ...Object.fromEntries(
    [
      'AccountOverview',
      'AccountPage',
      'AccessToken',
      'AccessTokenPage',
      'ProgramSummary',
      'ProgramSummaryPage',
      'RewardCodePoolLevel',
      'WebhookSecretRotated',
    ].map((name) => [name, 'a schema of the staff console’s lists of accounts, tokens and programs']),
  ),
};

/** The captured component schemas of these names, to compare a definition's schemas with. */
export function schemasBefore(names: readonly string[]): Record<string, Json> {
  return Object.fromEntries(names.map((name) => [name, documentBefore.components.schemas[name]!]));
}

/** A value as JSON carries it, as the fixture was captured: what the document serves, not how it is built. */
export const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * Expects each of a definition's path items, as the served document states it (with the document-wide answers
 * and the Idempotency-Key), to be the item the hand-written document stated; a failure names the path.
 */
export function expectPathsAsBefore(paths: Record<string, Json>): void {
  for (const [path, item] of Object.entries(withIdempotencyKey(withGatewayAnswers(paths))))
    if (!(path in changedOnPurpose)) expect([path, plain(item)]).toEqual([path, documentBefore.paths[path]]);
}

/** Expects the stated schemas of these names (all by default) to be the hand-written document's. */
export function expectSchemasAsBefore(stated: Record<string, unknown>, names = Object.keys(stated)): void {
  for (const name of names)
    if (!(name in changedOnPurpose))
      expect([name, plain(stated[name])]).toEqual([name, documentBefore.components.schemas[name]]);
}
