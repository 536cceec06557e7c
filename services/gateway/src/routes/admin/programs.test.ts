import pino from 'pino';
import { ERROR_IDS } from '@eligo/vocabulary';
import { programsProgramV1, programsV1 } from '@eligo/proto';
import { bindService, createClient, GrpcHost, invalidArgument } from '@eligo/runtime';
import { createProgramsClient } from '../../clients/programs.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';

// Accounts, tokens and programs under /rest/admin/v1 as mounted by mountRest, through the real programs client
// (protobuf encoding included) against a recording ProgramsService stand-in on a gRPC server: what the
// document's schemas refuse never reaches the service, and a refusal of the service is ER invalidRequest.
const operator = TEST_OPERATOR_TOKEN;
const accountId = 'cd'.repeat(12);
const programId = 'ab'.repeat(12);

const calls: [string, unknown][] = [];
const planned = new Map<string, unknown>();
const answer =
  <Req, Res>(method: string, fallback: (req: Req) => Res) =>
  async (req: Req): Promise<Res> => {
    calls.push([method, req]);
    const next = planned.get(method);
    planned.delete(method);
    if (next instanceof Error) throw next;
    return (next as Res | undefined) ?? fallback(req);
  };
const stored = (program: programsProgramV1.Program | undefined) =>
  programsProgramV1.Program.fromPartial({
    ...program,
    programId,
    accountId,
    segment: program?.segment || 'age',
  });

const grpc = new GrpcHost({ logger: pino({ level: 'silent' }), reflection: false });
grpc.addService(
  bindService(
    programsV1.ProgramsServiceService,
    {
      // Every RPC needs a handler: those these tests do not use answer empty (and are recorded).
      ...Object.fromEntries(
        Object.keys(programsV1.ProgramsServiceService).map((key) => [key, answer(key, () => ({}))]),
      ),
      createAccount: answer('createAccount', (req: programsV1.CreateAccountRequest) => ({
        account: { accountId, name: req.name, createdAt: new Date(1_700_000_000_000) },
      })),
      createProgram: answer('createProgram', (req: programsV1.CreateProgramRequest) => ({
        program: stored(req.program),
        webhookSigningSecret: '',
      })),
      updateProgram: answer('updateProgram', (req: programsV1.UpdateProgramRequest) => ({
        program: stored(req.program),
        webhookSigningSecret: '',
      })),
      addRewardCodes: answer('addRewardCodes', (req: programsV1.AddRewardCodesRequest) => ({
        added: req.codes.length,
        remaining: req.codes.length,
      })),
    } as never,
    pino({ level: 'silent' }),
  ),
);

let url: string;
let app: TestRestApp;
let closeClient: () => void;

beforeAll(async () => {
  const address = `127.0.0.1:${await grpc.listen('127.0.0.1', 0)}`;
  const client = createClient(programsV1.ProgramsServiceClient, address, {
    deadlineMs: 5000,
    breaker: false,
  });
  closeClient = () => client.close();
  app = await startTestRestApp({ programs: createProgramsClient(client) });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => {
  app.close();
  closeClient();
  grpc.forceShutdown();
});
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

/** `body` is sent as it is when a string (JSON numbers JSON.stringify cannot write, such as 1e22). */
async function call(method: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const newProgram = { accountId, name: 'Spring', segment: 'age' };
const refused = (message: string) => [400, { errorIds: ['invalidRequest'], systemErrorMessage: message }];

describe('organization ids, which travel as int64', () => {
  it('refuses an id above 2^53 - 1 with 400 (it was a 500: protobuf cannot encode 1e22 as an int64)', async () => {
    const res = await call(
      'POST',
      '/programs',
      `{"accountId":"${accountId}","name":"P","segment":"student","organizationRules":{"includeIds":[1e22]}}`,
    );
    expect([res.status, res.body]).toEqual(
      refused('body.organizationRules.includeIds[0] must be <= 9007199254740991'),
    );
    expect(calls).toEqual([]);
  });

  it('passes the largest safe integer on, and answers it as the same number', async () => {
    const res = await call('PATCH', `/programs/${programId}`, {
      organizationRules: { excludeIds: [Number.MAX_SAFE_INTEGER] },
    });
    expect(res.status).toBe(200);
    expect(res.body.organizationRules).toEqual({
      types: [],
      countries: [],
      includeIds: [],
      excludeIds: [Number.MAX_SAFE_INTEGER],
    });
  });
});

describe('the programs service’s rules, stated by the document and so checked before any call', () => {
  it.each<[string, string, unknown, string]>([
    [
      'an unknown segment',
      'POST',
      { ...newProgram, segment: 'pirate' },
      'body.segment must be one of student, military, teacher, senior, age, firstResponder, medicalProfessional, licensedProfessional, mover, driverLicense, generalIdentity, employee, member, lowIncome',
    ],
    [
      'a sub-segment of another segment',
      'POST',
      { ...newProgram, segment: 'military', subSegments: ['nurse'] },
      'body.subSegments[0] must be one of activeDuty, veteran, reservist, militaryRetiree, militaryFamily, goldStarFamily (the sub-segments of military)',
    ],
    [
      'a sub-segment for a segment without any',
      'POST',
      { ...newProgram, segment: 'student', subSegments: ['veteran'] },
      'body.subSegments must NOT have more than 0 items (student programs take no sub-segments)',
    ],
    [
      'a sub-segment twice',
      'PATCH',
      { subSegments: ['veteran', 'veteran'] },
      'body.subSegments must NOT have duplicate items (items ## 1 and 0 are identical)',
    ],
    [
      'minAge outside age and senior programs',
      'POST',
      { ...newProgram, segment: 'student', minAge: 18 },
      'body.minAge must be null (only age and senior programs take an age range)',
    ],
    ['an age over 150', 'PATCH', { maxAge: 151 }, 'body.maxAge must be <= 150'],
    [
      'a reward code without a staticCode offer',
      'POST',
      { ...newProgram, rewardCode: 'SPRING' },
      'body.rewardCode must be null (only a staticCode offer takes a rewardCode)',
    ],
    [
      'a staticCode offer without a code',
      'POST',
      { ...newProgram, offerType: 'staticCode' },
      'body.rewardCode is required (a staticCode offer needs its rewardCode)',
    ],
    [
      'a reward code with a space',
      'PATCH',
      { rewardCode: 'SPRING 25' },
      'body.rewardCode must be 1 to 128 characters without whitespace or control characters',
    ],
    [
      'a reward code over 128 characters',
      'PATCH',
      { consolationRewardCode: 'C'.repeat(129) },
      'body.consolationRewardCode must be 1 to 128 characters without whitespace or control characters',
    ],
    [
      'a country that is none',
      'PATCH',
      { countries: ['US', 'XX'] },
      'body.countries[1] must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'a country twice',
      'PATCH',
      { countries: ['US', 'US'] },
      'body.countries must NOT have duplicate items (items ## 1 and 0 are identical)',
    ],
    [
      'an organization type that is none',
      'PATCH',
      { organizationRules: { types: ['PUB'] } },
      'body.organizationRules.types[0] must be one of UNIVERSITY, POST_SECONDARY, HIGH_SCHOOL, K12, MILITARY, FIRST_RESPONDER, MEDICAL, CORPORATE, MEMBERSHIP, NON_PROFIT, GOVERNMENT, OTHER',
    ],
    [
      'an id twice',
      'PATCH',
      { organizationRules: { includeIds: [7, 7] } },
      'body.organizationRules.includeIds must NOT have duplicate items (items ## 1 and 0 are identical)',
    ],
    ['more than 10 rejections', 'PATCH', { maxRejections: 11 }, 'body.maxRejections must be <= 10'],
    [
      'an unknown review time',
      'PATCH',
      { maxReviewTime: '1_WEEK' },
      'body.maxReviewTime must be one of 2_MIN, 20_MIN, 2_HRS, 24_HRS, 2_DAY, 3_DAY, ',
    ],
    [
      'a limit over 1000 verifications',
      'PATCH',
      { verificationLimit: { quantity: 1001, days: 1 } },
      'body.verificationLimit.quantity must be <= 1000',
    ],
    [
      'a limit over 3650 days',
      'PATCH',
      { verificationLimit: { quantity: 1, days: 3651 } },
      'body.verificationLimit.days must be <= 3650',
    ],
    [
      'a name of spaces',
      'PATCH',
      { name: '   ' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'a name with a control character',
      'POST',
      { ...newProgram, name: 'Spring\u0000' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'a redirect to another scheme',
      'PATCH',
      { redirectUrl: 'javascript:alert(1)' },
      'body.redirectUrl must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password)',
    ],
    [
      'a redirect with a password',
      'PATCH',
      { redirectUrl: 'https://me:secret@shop.example.com/' },
      'body.redirectUrl must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password)',
    ],
    [
      'a callback with a fragment',
      'PATCH',
      { webhook: { callbackUri: 'https://hooks.example.com/#x' } },
      'body.webhook.callbackUri must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password), without a fragment (#)',
    ],
    [
      'a date in year 0',
      'PATCH',
      { startDate: '0000-12-31' },
      'body.startDate must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
    ],
    [
      'a leap second',
      'PATCH',
      { endDate: '2016-12-31T23:59:60Z' },
      'body.endDate must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
    ],
    [
      'a locale that is no BCP 47 tag',
      'PATCH',
      { theme: { intl: { locale: 'x-klingon' } } },
      'body.theme.intl.locale must be a BCP 47 language tag (language[-Script][-REGION][-variant], e.g. en-US), or empty',
    ],
    [
      'an unknown errorId',
      'PATCH',
      { theme: { intl: { errorId: { noSuchError: 'x' } } } },
      `body.theme.intl.errorId key "noSuchError" must be one of ${ERROR_IDS.join(', ')}`,
    ],
    [
      'markup in the CSS',
      'PATCH',
      { theme: { customCss: '</style><script>' } },
      'body.theme.customCss must not contain "<" (write \\3c in strings) or control characters other than tabs and line breaks',
    ],
    [
      'a message key with a space',
      'PATCH',
      { theme: { intl: { messages: { 'form title': 'x' } } } },
      'body.theme.intl.messages key "form title" must be 1 to 100 letters, digits, _ . or -',
    ],
  ])('refuses %s', async (_name, method, body, message) => {
    const path = method === 'POST' ? '/programs' : `/programs/${programId}`;
    const res = await call(method, path, body);
    expect([res.status, res.body]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a staticCode offer with its code', { ...newProgram, offerType: 'staticCode', rewardCode: 'SPRING-25' }],
    [
      'a military program with its sub-segments',
      { ...newProgram, segment: 'military', subSegments: ['veteran'] },
    ],
    ['an age program with its bounds', { ...newProgram, minAge: 18, maxAge: 25, countries: ['us', 'DE'] }],
    [
      'URLs of each host form and dates of each form',
      {
        ...newProgram,
        redirectUrl: 'https://shop.example.com:8443/thanks?x=1#top',
        webhook: { callbackUri: 'http://[2001:db8::1]:8080/hook?a=b' },
        startDate: '2030-01-01',
        endDate: '2030-06-01T12:00:00.5+02:00',
      },
    ],
    [
      'a code of 128 characters that are not all in the BMP',
      { ...newProgram, offerType: 'staticCode', rewardCode: '😀'.repeat(128) },
    ],
  ])('passes %s on', async (_name, body) => {
    const res = await call('POST', '/programs', body);
    expect(res.status).toBe(201);
    expect(calls.map(([method]) => method)).toEqual(['createProgram']);
  });

  it('answers a refusal of the service ER invalidRequest, also one worded without errorIds', async () => {
    planned.set('updateProgram', invalidArgument('endDate: must be after startDate'));
    const res = await call('PATCH', `/programs/${programId}`, { endDate: '2020-01-01' });
    expect([res.status, res.body]).toEqual(refused('endDate: must be after startDate'));
  });
});

describe('accounts, tokens and reward codes', () => {
  it.each<[string, string, unknown, string]>([
    [
      'an account name of spaces',
      '/accounts',
      { name: ' \t ' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'a token name with a line break inside',
      `/accounts/${accountId}/tokens`,
      { name: 'web\nhook' },
      'body.name must be 1 to 100 characters once trimmed, without control characters',
    ],
    [
      'a reward code with a space inside',
      `/programs/${programId}/rewardCodes`,
      { codes: ['A1', 'B 2'] },
      'body.codes[1] must be 1 to 128 characters without whitespace or control characters (surrounding whitespace is trimmed)',
    ],
  ])('refuses %s before any call', async (_name, path, body, message) => {
    const res = await call('POST', path, body);
    expect([res.status, res.body]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });

  it('passes names and codes with surrounding whitespace on: the service trims them', async () => {
    expect((await call('POST', '/accounts', { name: '  Acme  ' })).status).toBe(201);
    expect(
      (await call('POST', `/programs/${programId}/rewardCodes`, { codes: [' A1 ', 'B2\t'] })).status,
    ).toBe(200);
    expect(calls).toEqual([
      ['createAccount', { name: '  Acme  ' }],
      ['addRewardCodes', { programId, codes: [' A1 ', 'B2\t'] }],
    ]);
  });
});

describe('the program routes, as endpoints/admin-programs.ts defines them', () => {
  const raw = (method: string, path: string, contentType?: string, body?: string) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${operator}`,
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(body === undefined ? {} : { body }),
    });

  it('answers a program of any account (GET, account_id left empty)', async () => {
    planned.set('getProgram', { program: stored({ name: 'Spring' } as programsProgramV1.Program) });
    const res = await fetch(`${url}/programs/${programId}`, {
      headers: { authorization: `Bearer ${operator}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('Spring');
    expect(calls).toEqual([['getProgram', { programId, accountId: '' }]]);
  });

  it.each([
    ['GET', `/programs/NOPE`],
    ['PATCH', `/programs/NOPE`],
    ['POST', `/programs/NOPE/rewardCodes`],
  ])('answers %s %s 404 noProgram before the body, without a call', async (method, path) => {
    const body = method === 'GET' ? undefined : '{"codes":[],"mode":"prod"}';
    const res = await raw(method, path, body && 'application/json', body);
    expect([res.status, await res.json()]).toEqual([
      404,
      { errorIds: ['noProgram'], systemErrorMessage: 'Program not found' },
    ]);
    expect(calls).toEqual([]);
  });

  it('takes a JSON merge patch, and names only the keys present in the update mask', async () => {
    const res = await raw(
      'PATCH',
      `/programs/${programId}`,
      'application/merge-patch+json',
      JSON.stringify({ name: 'Autumn', minAge: null, maxRejections: 5 }),
    );
    expect(res.status).toBe(200);
    const [[, request]] = calls as [[string, programsV1.UpdateProgramRequest]];
    expect(request.updateMask).toEqual(['name', 'min_age', 'document_review.max_rejections']);
  });

  it.each<[string, string | undefined, string]>([
    ['PATCH', '{}', 'body must NOT have fewer than 1 properties'],
    ['PATCH', undefined, 'body is required (Content-Type: application/json)'],
    ['POST', undefined, 'body is required (Content-Type: application/json)'],
    [
      'POST',
      // The rules of a new program come before its other faults, as the document's allOf does.
      JSON.stringify({ ...newProgram, segment: 'student', pricing: 1, minAge: 3 }),
      'body.minAge must be null (only age and senior programs take an age range)',
    ],
  ])('refuses %s %s before any call', async (method, body, message) => {
    const path = method === 'POST' ? '/programs' : `/programs/${programId}`;
    const res = await raw(method, path, body === undefined ? undefined : 'application/json', body);
    expect([res.status, await res.json()]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });

  it('answers a new webhook’s signing secret once, not to be cached (201, no-store)', async () => {
    planned.set(
      'createProgram',
      programsV1.CreateProgramResponse.fromPartial({
        program: stored({
          webhook: { callbackUri: 'https://hooks.example.com/x', createdAt: new Date(0), notifications: [] },
        } as unknown as programsProgramV1.Program),
        webhookSigningSecret: 'whsec_1',
      }),
    );
    const res = await raw(
      'POST',
      '/programs',
      'application/json',
      JSON.stringify({ ...newProgram, webhook: { callbackUri: 'https://hooks.example.com/x' } }),
    );
    expect([res.status, res.headers.get('cache-control')]).toEqual([201, 'no-store']);
    const answer = (await res.json()) as { webhook: { signingSecret: string } };
    expect(answer.webhook.signingSecret).toBe('whsec_1');
    const again = await raw('POST', '/programs', 'application/json', JSON.stringify(newProgram));
    expect([again.status, again.headers.get('cache-control')]).toEqual([201, null]);
  });

  it('adds reward codes and answers how many (200)', async () => {
    const res = await call('POST', `/programs/${programId}/rewardCodes`, { codes: ['A1', 'B2'] });
    expect([res.status, res.body]).toEqual([200, { added: 2, remaining: 2 }]);
  });
});
