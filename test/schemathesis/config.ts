import type { Seeded } from './seed';

/** How much Schemathesis generates per operation: `npm test` fits CI time, `npm run fuzz` is the full run. */
export interface Profile {
  maxExamples: number;
  /** Steps of each scenario of the stateful phase (links between operations). */
  statefulMaxSteps: number;
}

export const profiles = {
  ci: { maxExamples: 50, statefulMaxSteps: 10 },
  full: { maxExamples: 1000, statefulMaxSteps: 50 },
} satisfies Record<string, Profile>;

/**
 * Operations where a schema-valid request can still be refused with a 400 (or 410) that the document
 * describes: the outcome depends on stored state or on rules JSON Schema cannot state. Schemathesis'
 * positive_data_acceptance takes these statuses as answers there; everywhere else a schema-valid request
 * must be accepted.
 */
const businessRefusals: { pathRegex: string; statuses: string[]; why: string }[] = [
  {
    pathRegex: '^/verification/(\\{verificationId\\}|program/\\{programId\\})/step/',
    statuses: ['400'],
    why: 'recoverable errors (invalidBirthDate, invalidEmail, ...) and invalidStep when the verification is on another step (spec: 400 VR)',
  },
  {
    pathRegex: '^/verification/marketplace$',
    statuses: ['400'],
    why: "a token the program's key does not verify",
  },
  {
    pathRegex: '^/verification/\\{verificationId\\}/(expire|metadata)$',
    statuses: ['400'],
    why: 'the verification has ended (spec: expire answers 400 VR)',
  },
  {
    pathRegex: '^/organization/addSchool',
    statuses: ['400'],
    why: 'a top-level domain outside the Public Suffix List, an address validator.js refuses, a country the program does not accept',
  },
  {
    pathRegex: '^/report/(verification|fields)$',
    statuses: ['400'],
    why: 'program ids of another account (spec: 400 invalid program id)',
  },
  { pathRegex: '^/report/\\{reportId\\}', statuses: ['410'], why: 'the report was deleted (spec: 410)' },
  {
    pathRegex: '^/uploads/',
    statuses: ['400', '410'],
    why:
      'a body whose length is not the size the manifest declared; a URL already used (by an earlier case: ' +
      'each works once) or expired (spec: 410)',
  },
  {
    pathRegex: '^/program/\\{programId\\}/sendLink$',
    statuses: ['400'],
    why: 'an address validator.js refuses',
  },
  {
    pathRegex: '^/program/\\{programId\\}/webhook$',
    statuses: ['400'],
    why: 'a callbackUri whose host is a non-public IP address (loopback, private, reserved, ...)',
  },
  // The admin API.
  {
    pathRegex: '^/programs(/\\{programId\\})?$',
    statuses: ['400', '409'],
    why:
      'rules across fields and against the stored program (endDate after startDate, minAge not above maxAge, ' +
      'sub-segments and ages of the stored segment, a usable subjectTokenKey, theme sizes in bytes, a ' +
      'webhook callbackUri on a non-public IP address, an embedOrigins origin listed twice in two spellings)',
  },
  {
    pathRegex: '^/organizations$',
    statuses: ['400'],
    why: 'CSV beyond its header row: repeated or missing columns, broken quoting in a later row',
  },
  {
    pathRegex: '^/addSchoolRequests/\\{requestId\\}/accept$',
    statuses: ['400'],
    why: 'a domain not under a registrable Public Suffix List name, a name without a letter or digit',
  },
  {
    pathRegex:
      '^/(addSchoolRequests|pii-access|reviews|messages|programs/\\{programId\\}/webhook/deliveries|staff|audit|' +
      'accounts|accounts/\\{accountId\\}/tokens|verifications/search)$',
    statuses: ['400'],
    why: 'an opaque cursor or page token that this server did not issue',
  },
  {
    pathRegex: '^/organizations/\\{organizationId\\}/sso$',
    statuses: ['400'],
    why: 'a rule that checks nothing, plain http to an address ELIGO_WEBHOOK_ALLOW_CIDRS does not open, an IP address issuer that is not public',
  },
  {
    pathRegex: '^/programs/\\{programId\\}/eligibility-list$',
    statuses: ['400'],
    why: 'a CSV or NDJSON file beyond its schema: an unknown column or key, broken quoting, a line that is no JSON',
  },
];
// 422: every POST of REST v2 takes an Idempotency-Key, and the fuzzer reuses the few keys it generates
// ("0", "00", ...) with other bodies: idempotencyKeyReused, a refusal no schema can state (which keys a
// client used before).
const positiveDefaults = ['2xx', '3xx', '401', '403', '404', '409', '422', '429', '5xx'];
// Schemathesis' own list of refusals; 431: a request line and headers over the HTTP server's 16 KiB limit
// (a query of hundreds of ids, generated to break a maxItems) is refused before any route reads it; 413: a
// body over ELIGO_HTTP_BODY_LIMIT (thousands of escaped strings, generated to break a maxItems: CI saw one of
// 2 MB for POST /programs/{programId}/rewardCodes) is refused before any route validates it.
const negativeDefaults = ['400', '401', '403', '404', '405', '406', '409', '415', '422', '428', '429', '5xx'];

const q = (value: string) => JSON.stringify(value);
const list = (values: (string | number)[]) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;

/**
 * The Web Fuzzing Commons auth file: account A first (most operations run as A), then the operator (the
 * admin API refuses A, and Schemathesis moves on to the next identity that an operation admits), then
 * account B, A's peer: object-level authorization replays A's reads of A's objects as B.
 */
export function wfcAuth(seeded: Seeded): object {
  const bearer = (token: string) => [{ name: 'Authorization', value: `Bearer ${token}` }];
  return {
    schemaVersion: '0.1.0',
    auth: [
      { name: 'accountA', fixedHeaders: bearer(seeded.a.token) },
      { name: 'operator', fixedHeaders: bearer(seeded.operatorToken) },
      { name: 'accountB', fixedHeaders: bearer(seeded.b.token) },
    ],
  };
}

/**
 * schemathesis.toml for one run: every check on, the identities of wfcAuth, and the seeded ids offered for
 * the parameters that name objects (mixed with generated values: a dictionary binding is used with its
 * probability, so malformed and unknown ids are still tried).
 */
export function schemathesisToml(seeded: Seeded, profile: Profile, authFile: string): string {
  const v = seeded.verifications;
  const operation = (path: string, parameters: Record<string, string>) =>
    [
      '[[operations]]',
      `include-path = ${q(path)}`,
      `parameters = { ${Object.entries(parameters)
        .map(([k, val]) => `${q(k)} = ${q(val)}`)
        .join(', ')} }`,
      '',
    ].join('\n');
  return [
    // One worker: with several, Hypothesis describes strategies from threads and CPython 3.11.7 (the CI
    // image's) fails in ast.parse there now and then ("AST constructor recursion depth mismatch").
    'workers = 1',
    'request-timeout = 20.0',
    'continue-on-failure = true',
    'suppress-health-check = ["too_slow", "filter_too_much"]',
    '',
    '[generation]',
    `max-examples = ${profile.maxExamples}`,
    '',
    '[checks]',
    'enabled = true',
    `positive_data_acceptance.expected-statuses = ${list(positiveDefaults)}`,
    `negative_data_rejection.expected-statuses = ${list([...negativeDefaults, '413', '431'])}`,
    '',
    '[phases.stateful]',
    `max-steps = ${profile.statefulMaxSteps}`,
    '',
    '[auth.wfc]',
    `path = ${q(authFile)}`,
    'peers = ["accountA", "accountB"]',
    '',
    '[dictionaries.verifications]',
    `values = ${list([...v.collect, v.success, v.pending])}`,
    '[dictionaries.programs]',
    `values = ${list([seeded.a.programId])}`,
    '[dictionaries.accounts]',
    `values = ${list([seeded.a.accountId])}`,
    '[dictionaries.trackingIds]',
    `values = ${list([seeded.trackingId])}`,
    '[dictionaries.organizations]',
    `values = ${list([seeded.organizationId])}`,
    '',
    '[parameters]',
    '"path.verificationId" = { dictionary = "verifications", probability = 0.8 }',
    '"path.programId" = { dictionary = "programs", probability = 0.8 }',
    '"path.accountId" = { dictionary = "accounts", probability = 0.8 }',
    '"path.trackingId" = { dictionary = "trackingIds", probability = 0.5 }',
    '"path.organizationId" = { dictionary = "organizations", probability = 0.8 }',
    '"path.reportId" = ' + q(seeded.reportId),
    '"path.batchId" = ' + q(seeded.batchId),
    '"path.requestId" = ' + q(seeded.addSchoolRequestId),
    '"path.reviewId" = ' + q(seeded.reviewId),
    '"path.uploadToken" = ' + q(seeded.uploadToken),
    '"path.docUploadToken" = ' + q(v.docUploadToken),
    '"body.programId" = { dictionary = "programs", probability = 0.8 }',
    '"query.programId" = { dictionary = "programs", probability = 0.5 }',
    '',
    // The docUpload step's operations need a verification at docUpload.
    operation('/verification/{verificationId}/step/docUpload', { verificationId: v.docUpload }),
    operation('/verification/{verificationId}/step/docUpload/{docUploadToken}', {
      verificationId: v.docUpload,
    }),
    operation('/verification/{verificationId}/step/completeDocUpload', { verificationId: v.docUpload }),
    // Admin changes go to a program of their own, so that a PATCH (an end date in the past, live mode)
    // cannot take the program of the flows out of service for the rest of the run.
    operation('/programs/{programId}', { programId: seeded.adminProgramId }),
    operation('/programs/{programId}/rewardCodes', { programId: seeded.adminProgramId }),
    // The single sign-on page exists only while a verification is at its sso step: right after POST
    // /verification it is 404 by design, which is not a created resource that went missing (check ST302).
    [
      '[[operations]]',
      `include-path = ${q('/verification/{verificationId}/step/sso')}`,
      'checks.ensure_resource_availability.enabled = false',
      '',
    ].join('\n'),
    // The token's own account: a token id under another account (one a stateful step just created) is 404.
    operation('/accounts/{accountId}/tokens/{tokenId}', {
      accountId: seeded.a.accountId,
      tokenId: seeded.disposableTokenId,
    }),
    ...businessRefusals.map(({ pathRegex, statuses }) =>
      [
        '[[operations]]',
        `include-path-regex = ${q(pathRegex)}`,
        `checks.positive_data_acceptance.expected-statuses = ${list([...positiveDefaults, ...statuses])}`,
        '',
      ].join('\n'),
    ),
  ].join('\n');
}
