import { programsV1 } from '@eligo/proto';
import { AuthCache } from '../auth/auth-cache';
import { createAuthenticator } from '../auth/authenticator';
import type { RestOptions } from '../http/rest-app';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../test/rest-app';

// Issue 18: a NUL in a metadata key passed the edge, travelled in an event and stopped the consumer that
// stored it. Free text with a control character (NUL, ESC, NEL here) is the endpoint's 400 naming the field,
// answered by the gateway: no service is called. The schemas say so for every field (control-characters.test.ts
// in openapi/); these are the fields whose requests used to pass.
const verificationId = '0123456789abcdef01234567';
const programId = 'ab'.repeat(12);
const accountId = 'cd'.repeat(12);
const accountToken = 'eligo_account_token';
const jws = 'eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl';

/** The methods the stand-in clients were asked for: each of these requests must leave it empty. */
const calls: string[] = [];
const standIn = <T>(): T =>
  new Proxy(
    {},
    {
      get: (_target, method) =>
        typeof method === 'string'
          ? async () => {
              calls.push(method);
              return {};
            }
          : undefined,
    },
  ) as T;

let app: TestRestApp;
beforeAll(async () => {
  const { TOKEN_ROLE_REPORTER, TOKEN_ROLE_PII } = programsV1.TokenRole;
  app = await startTestRestApp({
    ...(Object.fromEntries(
      ['programs', 'organizations', 'verification', 'documents', 'notifier', 'reports'].map((c) => [
        c,
        standIn(),
      ]),
    ) as Partial<RestOptions>),
    authenticator: createAuthenticator({
      operatorToken: TEST_OPERATOR_TOKEN,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async () => ({
        accountId,
        tokenId: 'ef'.repeat(12),
        roles: [TOKEN_ROLE_REPORTER, TOKEN_ROLE_PII],
      }),
    }),
  });
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
});

interface Request {
  method?: string;
  path: string;
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded) instead of JSON. */
  form?: string;
  token?: string;
}

async function send({ method = 'POST', path, body, form, token }: Request) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(`${app.origin}${path}`, {
    method,
    headers,
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const er = (message: string) => ({ errorIds: ['invalidRequest'], systemErrorMessage: message });
/** The 400 of a step the gateway refused (currentStep error), with the verificationId of the path. */
const stepError = (message: string, id?: string) => ({
  ...(id ? { verificationId: id } : {}),
  currentStep: 'error',
  errorIds: ['invalidRequest'],
  systemErrorMessage: message,
});
const noControl = (field: string) => `${field} must not contain control characters`;
const noControlButLineBreaks = (field: string) => `${noControl(field)} other than tabs and line breaks`;

const step = (name: string) => `/rest/v2/verification/${verificationId}/step/${name}`;
const onProgram = (query = '') =>
  `/rest/v2/verification/program/${programId}/step/collectStudentPersonalInfo${query}`;
const student = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.edu', birthDate: '2000-01-31' };

describe('REST v2 steps: a 400 step error naming the field', () => {
  // Every row has four values: with fewer, jest would take the test's last parameter for `done`.
  it.each<[string, Request, string, string | undefined]>([
    [
      'a person name',
      { path: step('collectStudentPersonalInfo'), body: { ...student, firstName: 'Ja\u0000ne' } },
      noControl('body.firstName'),
      verificationId,
    ],
    [
      'an organization name',
      { path: step('collectStudentPersonalInfo'), body: { ...student, organization: { name: 'MIT\u001b' } } },
      noControl('body.organization.name'),
      verificationId,
    ],
    [
      'a metadata key',
      { path: step('collectStudentPersonalInfo'), body: { ...student, metadata: { 'a\u0000b': 'v' } } },
      `body.metadata key "a\\u0000b" must not contain control characters`,
      verificationId,
    ],
    [
      'a metadata value',
      { path: step('collectStudentPersonalInfo'), body: { ...student, metadata: { plan: 'pro\u0085' } } },
      noControl('body.metadata.plan'),
      verificationId,
    ],
    [
      'a status of a list',
      { path: step('collectLowIncomePersonalInfo'), body: { statuses: ['SNAP_BENEFITS\u001b'] } },
      noControl('body.statuses[0]'),
      verificationId,
    ],
    [
      'the military status',
      { path: step('collectMilitaryStatus'), body: { status: 'VETERAN\u0000' } },
      noControl('body.status'),
      verificationId,
    ],
    [
      'a social security number',
      { path: step('collectSocialSecurityNumber'), body: { socialSecurityNumber: '123\u0085' } },
      noControl('body.socialSecurityNumber'),
      verificationId,
    ],
    [
      'a metadata key, on the program path shape',
      { path: onProgram(), body: { ...student, metadata: { 'utm\u001bsource': 'mail' } } },
      `body.metadata key "utm\\u001bsource" must not contain control characters`,
      undefined,
    ],
    [
      'a tracking id of the query, even around it',
      { path: onProgram('?trackingId=%09order-1'), body: student },
      noControl('query.trackingId'),
      undefined,
    ],
    [
      'the tracking id of a marketplace start',
      {
        path: '/rest/v2/verification/marketplace',
        body: { programId, marketplaceToken: jws, trackingId: 'order\u0085' },
      },
      noControl('body.trackingId'),
      undefined,
    ],
  ])('refuses a control character in %s', async (_name, request, message, id) => {
    const res = await send(request);
    expect([res.status, res.body, calls]).toEqual([400, stepError(message, id), []]);
  });
});

describe('REST v2 with a token, and OAuth: the endpoint’s 400 naming the field', () => {
  it.each<[string, Request, string]>([
    [
      'a send-link email',
      { path: `/rest/v2/program/${programId}/sendLink`, body: { email: 'jane\u0000@example.edu' } },
      'body.email must be 1 to 320 characters once trimmed, without control characters',
    ],
    [
      'a send-link phone number',
      { path: `/rest/v2/program/${programId}/sendLink`, body: { phoneNumber: '+1415\u001b5550100' } },
      'body.phoneNumber must be 1 to 32 characters once trimmed, without control characters',
    ],
    [
      'the callbackUri of a webhook removal',
      {
        method: 'DELETE',
        path: `/rest/v2/program/${programId}/webhook`,
        body: { callbackUri: 'https://hooks.example.com/\u0085' },
      },
      noControl('body.callbackUri'),
    ],
    [
      'the reason for personal information in a report',
      {
        path: '/rest/v2/report/verification',
        body: {
          startDate: '2025-01-01',
          endDate: '2025-01-31',
          isPiiIncluded: true,
          piiReason: 'audit\u0000',
        },
      },
      noControlButLineBreaks('body.piiReason'),
    ],
  ])('refuses a control character in %s with ER invalidRequest', async (_name, request, message) => {
    const res = await send({ ...request, token: accountToken });
    expect([res.status, res.body, calls]).toEqual([400, er(message), []]);
  });

  it('refuses a control character in an OAuth client_id with invalid_request', async () => {
    const res = await send({
      path: '/rest/oauth/token',
      form: 'grant_type=client_credentials&client_id=eligo%00client&client_secret=s3cret',
    });
    expect([res.status, res.body, calls]).toEqual([
      400,
      { error: 'invalid_request', error_description: noControl('request.client_id') },
      [],
    ]);
  });
});

describe('admin API: ER invalidRequest naming the field', () => {
  const theme = (intl: object) => ({ theme: { intl } });
  it.each<[string, Request, string]>([
    [
      'a message of the theme',
      {
        path: '/rest/admin/v1/programs',
        body: {
          accountId,
          name: 'Spring',
          segment: 'student',
          ...theme({ messages: { greeting: 'Hi\u001b' } }),
        },
      },
      noControlButLineBreaks('body.theme.intl.messages.greeting'),
    ],
    [
      'an error text of the theme',
      {
        method: 'PATCH',
        path: `/rest/admin/v1/programs/${programId}`,
        body: theme({ errorId: { invalidEmail: 'Wrong\u0000' } }),
      },
      noControlButLineBreaks('body.theme.intl.errorId.invalidEmail'),
    ],
    [
      'a subject token key',
      {
        method: 'PATCH',
        path: `/rest/admin/v1/programs/${programId}`,
        body: { subjectTokenKey: '-----BEGIN PUBLIC KEY-----\u0085' },
      },
      noControlButLineBreaks('body.subjectTokenKey'),
    ],
    [
      'a review cursor',
      { method: 'GET', path: '/rest/admin/v1/reviews?cursor=%09c1' },
      noControl('query.cursor'),
    ],
    [
      'a message cursor',
      { method: 'GET', path: '/rest/admin/v1/messages?cursor=c1%0A' },
      noControl('query.cursor'),
    ],
    [
      'a delivery cursor',
      { method: 'GET', path: `/rest/admin/v1/programs/${programId}/webhook/deliveries?cursor=c1%0D` },
      noControl('query.cursor'),
    ],
    [
      'a PII access page token',
      { method: 'GET', path: '/rest/admin/v1/pii-access?pageToken=%0Bp1' },
      noControl('query.pageToken'),
    ],
    [
      'an add-school page token',
      { method: 'GET', path: '/rest/admin/v1/addSchoolRequests?pageToken=p1%0C' },
      noControl('query.pageToken'),
    ],
  ])('refuses a control character in %s', async (_name, request, message) => {
    const res = await send({ ...request, token: TEST_OPERATOR_TOKEN });
    expect([res.status, res.body, calls]).toEqual([400, er(message), []]);
  });
});
