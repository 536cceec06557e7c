import { openApiDocument } from '../src/openapi/document';
import { schemas } from '../src/openapi/components';
import { createDocumentValidator } from './document-validator';
import { subjectTypes } from '../src/validation/subject-keys';

const validator = createDocumentValidator();
const check = validator.check;

describe('the request validator checks bodies against the published schemas', () => {
  it.each<[string, Parameters<typeof check>[0], unknown, string]>([
    [
      'a wrong type',
      'ProgramCreateRequest',
      { accountId: 'a'.repeat(24), name: 'P', segment: 7 },
      'body.segment must be string',
    ],
    [
      'an unknown property, naming the allowed ones',
      'WebhookRequest',
      { callbackUri: 'https://example.com/hook', foo: 1 },
      'body has unexpected property foo (allowed: callbackUri, notifierEventTypes)',
    ],
    ['a missing property', 'AccountCreateRequest', {}, 'body.name is required'],
    [
      'a nested missing property',
      'ProgramPatchRequest',
      { webhook: {} },
      'body.webhook.callbackUri is required',
    ],
    [
      'a nested unknown property',
      'ProgramPatchRequest',
      { theme: { intl: { colour: 'red' } } },
      'body.theme.intl has unexpected property colour (allowed: locale, messages, errorId, locales)',
    ],
    ['a body that is not an object', 'VerificationLimitRequest', [1, 2], 'body must be object'],
    [
      'a number below its minimum',
      'VerificationLimitRequest',
      { quantity: 0, days: 1 },
      'body.quantity must be >= 1',
    ],
    ['a fraction', 'VerificationLimitRequest', { quantity: 1.5, days: 1 }, 'body.quantity must be integer'],
    ['a bad enum value', 'ProgramPatchRequest', { mode: 'prod' }, 'body.mode must be one of test, live'],
    ['an empty patch', 'ProgramPatchRequest', {}, 'body must NOT have fewer than 1 properties'],
    ['an array item', 'RewardCodesRequest', { codes: ['A', 2] }, 'body.codes[1] must be string'],
    [
      'an empty code list',
      'RewardCodesRequest',
      { codes: [] },
      'body.codes must NOT have fewer than 1 items',
    ],
    [
      'a role that does not exist',
      'AccessTokenCreateRequest',
      { name: 't', roles: ['ADMIN'] },
      'body.roles[0] must be one of REPORTER, PII, BULK_VERIFIER',
    ],
    [
      'an unknown webhook notification',
      'WebhookRequest',
      { callbackUri: 'https://example.com/hook', notifierEventTypes: ['SUCCESS'] },
      'body.notifierEventTypes[0] must be one of DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION',
    ],
    [
      'a webhook notification named twice',
      'WebhookRequest',
      { callbackUri: 'https://example.com/hook', notifierEventTypes: ['EXPIRATION', 'EXPIRATION'] },
      'body.notifierEventTypes must NOT have duplicate items (items ## 1 and 0 are identical)',
    ],
    [
      'webhook notifications that are not a list',
      'WebhookRequest',
      { callbackUri: 'https://example.com/hook', notifierEventTypes: 'EXPIRATION' },
      'body.notifierEventTypes must be array',
    ],
    [
      'an unknown webhook notification in the program settings',
      'ProgramPatchRequest',
      { webhook: { callbackUri: 'https://example.com/hook', notifierEventTypes: ['expiration'] } },
      'body.webhook.notifierEventTypes[0] must be one of DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION',
    ],
    [
      'a URI that is not one',
      'WebhookRequest',
      { callbackUri: 'not a uri' },
      'body.callbackUri must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, ' +
        'no user name or password), without a fragment (#)',
    ],
    [
      'neither recipient',
      'SendLinkRequest',
      { trackingId: 't' },
      'body must have exactly one of email, phoneNumber',
    ],
    [
      'both recipients',
      'SendLinkRequest',
      { email: 'a@b.co', phoneNumber: '+14155550100' },
      'body must have exactly one of email, phoneNumber',
    ],
    [
      'a date that is neither form',
      'ProgramPatchRequest',
      { startDate: '2024-02-30' },
      'body.startDate must match format "date", or must match format "date-time"',
    ],
    [
      'a field inside an object-or-null',
      'ProgramPatchRequest',
      { verificationLimit: { quantity: 'x', days: 1 } },
      'body.verificationLimit.quantity must be integer',
    ],
    [
      'an object-or-null given a string',
      'ProgramPatchRequest',
      { theme: 'dark' },
      'body.theme must be object or null',
    ],
    ['null where null is not allowed', 'ProgramPatchRequest', { name: null }, 'body.name must be string'],
    [
      'an odd key in a map',
      'ProgramPatchRequest',
      { theme: { intl: { messages: { 'a.b': 1 } } } },
      'body.theme.intl.messages["a.b"] must be string',
    ],
    [
      'a nested metadata value',
      'VerificationMetadata',
      { plan: 'pro', nested: { a: 'b' } },
      'body.nested must be string',
    ],
    ['a metadata number', 'VerificationMetadata', { seats: 3 }, 'body.seats must be string'],
    [
      'a malformed programId',
      'NewVerificationRequest',
      { programId: 'nope' },
      'body.programId must match pattern "^[0-9a-f]{24}$"',
    ],
    [
      'a tracking id over 256 characters',
      'NewVerificationRequest',
      { programId: 'ab'.repeat(12), trackingId: 'x'.repeat(257) },
      'body.trackingId must NOT have more than 256 characters',
    ],
  ])('%s', (_name, schema, body, message) => {
    expect(check(schema, body)).toBe(message);
  });

  it.each<[Parameters<typeof check>[0], unknown]>([
    ['ProgramCreateRequest', { accountId: 'ab'.repeat(12), name: 'P', segment: 'student' }],
    [
      'ProgramPatchRequest',
      { startDate: '2030-01-01', endDate: '2030-06-01T12:00:00+02:00', rewardCode: null },
    ],
    ['ProgramPatchRequest', { theme: null, webhook: null, verificationLimit: null, organizationRules: null }],
    ['SendLinkRequest', { email: 'someone@example.com', trackingId: 'abc' }],
    ['SendLinkRequest', { phoneNumber: '+14155550100' }],
    ['WebhookDeleteRequest', {}],
    [
      'WebhookRequest',
      {
        callbackUri: 'https://example.com/hook',
        notifierEventTypes: ['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'],
      },
    ],
    ['WebhookRequest', { callbackUri: 'https://example.com/hook', notifierEventTypes: [] }],
    [
      'ProgramCreateRequest',
      {
        accountId: 'ab'.repeat(12),
        name: 'P',
        segment: 'student',
        webhook: { callbackUri: 'https://example.com/hook', notifierEventTypes: ['EXPIRATION'] },
      },
    ],
    ['AccessTokenCreateRequest', { name: 't', roles: ['REPORTER', 'PII'] }],
    ['VerificationMetadata', {}],
    ['VerificationMetadata', { plan: 'pro', 'utm.source': 'mail' }],
  ])('accepts a valid %s', (schema, body) => {
    expect(check(schema, body)).toBeUndefined();
  });
});

describe('the OpenAPI document and the validator share one set of schemas', () => {
  const document = openApiDocument('http://localhost:8080') as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>
    >;
    components: { schemas: unknown };
  };

  it('publishes exactly the schemas the validator compiles', () => {
    expect(document.components.schemas).toBe(schemas);
  });

  // Bodies the validator checks name a component schema; the organization import's CSV/NDJSON stream does
  // not (its rows are checked while it is read: src/import).
  const requestSchemas = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      Object.values(operation?.requestBody?.content ?? {}).flatMap((media) =>
        media.schema.$ref
          ? [[`${method.toUpperCase()} ${path}`, media.schema.$ref.split('/').pop()!] as const]
          : [],
      ),
    ),
  );

  it('describes a request body for every endpoint that takes one', () => {
    expect(requestSchemas.map(([op]) => op)).toEqual(
      expect.arrayContaining([
        'POST /accounts',
        'POST /accounts/{accountId}/tokens',
        'POST /programs',
        'PATCH /programs/{programId}',
        'POST /programs/{programId}/rewardCodes',
        'POST /program/{programId}/verificationLimit',
        'POST /program/{programId}/webhook',
        'DELETE /program/{programId}/webhook',
        'POST /program/{programId}/sendLink',
        'POST /organization/addSchool/search/domain',
        'POST /organization/addSchool/search/name',
        'POST /organization/addSchool',
        'POST /addSchoolRequests/{requestId}/accept',
        'POST /addSchoolRequests/{requestId}/decline',
        'POST /token',
        'POST /verification',
        'POST /verification/{verificationId}/step/collectStudentPersonalInfo',
        'POST /verification/{verificationId}/step/collectPersonalInfo',
        'POST /verification/{verificationId}/step/collectMarketplaceToken',
        'POST /verification/program/{programId}/step/collectLowIncomePersonalInfo',
        'POST /verification/{verificationId}/step/collectMilitaryStatus',
        'POST /verification/{verificationId}/step/collectSocialSecurityNumber',
        'PUT /verification/{verificationId}/metadata',
        'POST /report/verification',
        'POST /conversion/verification/{verificationId}',
        'POST /conversion/account/{accountId}/trackingId/{trackingId}',
        'POST /verification/reverify',
      ]),
    );
  });

  /** A valid body per request schema: a new schema without one fails the test below. */
  const validBodies: Record<string, object> = {
    AccountCreateRequest: { name: 'Acme' },
    EmailTokenRequest: { emailToken: '123456' },
    AccessTokenCreateRequest: { name: 'ci' },
    StaffCreateRequest: { email: 'jane@example.com', name: 'Jane', role: 'reviewer' },
    StaffPatchRequest: { role: 'support' },
    ProgramCreateRequest: { accountId: 'ab'.repeat(12), name: 'P', segment: 'student' },
    ProgramPatchRequest: { name: 'P2' },
    RewardCodesRequest: { codes: ['A'] },
    VerificationLimitRequest: { quantity: 1, days: 30 },
    WebhookRequest: { callbackUri: 'https://example.com/hook' },
    WebhookDeleteRequest: {},
    SendLinkRequest: { email: 'someone@example.com' },
    AddSchoolDomainSearchRequest: { programId: 'ab'.repeat(12), schoolDomain: 'x.edu', schoolCountry: 'US' },
    AddSchoolNameSearchRequest: { programId: 'ab'.repeat(12), schoolName: 'X', schoolCountry: 'US' },
    AddSchoolRequest: {
      firstName: 'A',
      lastName: 'B',
      email: 'a@example.com',
      schoolName: 'X',
      schoolDomain: 'x.edu',
      schoolCountry: 'US',
      programId: 'ab'.repeat(12),
    },
    AddSchoolAcceptRequest: { type: 'UNIVERSITY' },
    AddSchoolDeclineRequest: {},
    NewVerificationRequest: { programId: 'ab'.repeat(12), trackingId: 'order-1' },
    MilitaryStatusRequest: { status: 'ACTIVE_DUTY' },
    SocialSecurityNumberRequest: { socialSecurityNumber: '123-45-6789' },
    MarketplaceTokenRequest: { marketplaceToken: 'aGVhZGVy.cGF5bG9hZA.c2ln' },
    MarketplaceVerificationRequest: {
      programId: 'ab'.repeat(12),
      verificationToken: 'aGVhZGVy.cGF5bG9hZA.c2ln',
    },
    DocUploadRequest: { files: [{ fileName: 'id.png', mimeType: 'image/png', fileSize: 1024 }] },
    ReviewDecisionInput: { decision: 'reject', rejectionReasons: ['DOCUMENT_UNREADABLE'] },
    ReportRequest: { startDate: '2025-01-01', endDate: '2025-01-31' },
    ConversionRequest: { amount: 12.5 },
    ReverifyRequest: { programId: 'ab'.repeat(12), verificationIds: ['cd'.repeat(12)] },
    VerificationSearchRequest: { email: 'someone@example.com' },
    OrganizationSsoRequest: { issuer: 'https://login.example.edu', clientId: 'eligo', rule: {} },
    ...Object.fromEntries(subjectTypes.map((type) => [`${type}Subject`, { firstName: 'Jane' }])),
  };
  // Metadata is a map: any key is a property of it (its values must be strings).
  const maps = new Set(['PUT /verification/{verificationId}/metadata']);

  // RFC 6749 section 3.1: the token endpoint must ignore parameters it does not know.
  it.each(requestSchemas.filter(([op]) => op !== 'POST /token' && !maps.has(op)))(
    '%s refuses unknown properties (%s)',
    (_op, name) => {
      const schema = name as keyof typeof schemas;
      expect(schemas[schema]).toMatchObject({ additionalProperties: false });
      expect(validBodies[name]).toBeDefined();
      expect(check(schema, validBodies[name])).toBeUndefined();
      expect(check(schema, { ...validBodies[name], surelyUnknownProperty: 1 })).toMatch(
        /^body has unexpected property surelyUnknownProperty \(allowed: /,
      );
    },
  );
});
