import { organizationsOrganizationV1 } from '@eligo/proto';
import { invalidArgument } from '@eligo/runtime';
import type { OrganizationsClient } from '../../clients/organizations.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';
import { openApiDocument } from '../../openapi/document';

// The add-school review queue under /rest/admin/v1 as mounted by mountRest, against a recording organizations
// stand-in: what the document's schemas refuse never reaches the service; every 400 is ER invalidRequest.
const operator = TEST_OPERATOR_TOKEN;
const requestId = 'ab'.repeat(12);
const programId = 'cd'.repeat(12);
const record = organizationsOrganizationV1.AddSchoolRequest.fromPartial({
  requestId,
  programId,
  status: organizationsOrganizationV1.AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_PENDING,
  schoolName: 'Springfield College',
  schoolDomain: 'springfield.edu',
  schoolCountry: 'US',
  createdAt: new Date(1_700_000_000_000),
});
const organization = organizationsOrganizationV1.Organization.fromPartial({
  id: 7,
  name: 'Springfield College',
  type: 'POST_SECONDARY',
  country: 'US',
  domains: ['springfield.edu'],
  externalKey: `add-school:${requestId}`,
});

const calls: [string, unknown][] = [];
const planned = new Map<string, unknown>();
const answer =
  <Res>(method: string, fallback: Res) =>
  async (req: unknown): Promise<Res> => {
    calls.push([method, req]);
    const next = planned.get(method);
    planned.delete(method);
    if (next instanceof Error) throw next;
    return (next as Res | undefined) ?? fallback;
  };
const organizations = standIn<OrganizationsClient>('organizations', {
  listAddSchoolRequests: answer('listAddSchoolRequests', { requests: [record], nextPageToken: '' }),
  acceptAddSchoolRequest: answer('acceptAddSchoolRequest', { request: record, organization }),
  declineAddSchoolRequest: answer('declineAddSchoolRequest', { request: record }),
});

let url: string;
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({ organizations, bodyLimit: '10kb' });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

async function call(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${operator}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const refused = (message: string) => [400, { errorIds: ['invalidRequest'], systemErrorMessage: message }];

describe('GET /addSchoolRequests', () => {
  it.each(['status=', 'programId=', 'pageSize=', 'pageToken=', 'status=OPEN', 'pageToken=a%0Ab', 'limit=5'])(
    'refuses %s with 400 invalidRequest, without a call',
    async (query) => {
      const res = await call('GET', `/addSchoolRequests?${query}`);
      expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
      expect(calls).toEqual([]);
    },
  );

  it('answers a page token the service cannot read 400 ER invalidRequest', async () => {
    planned.set(
      'listAddSchoolRequests',
      invalidArgument('pageToken: is not a token returned by ListAddSchoolRequests'),
    );
    const res = await call('GET', '/addSchoolRequests?pageToken=forged');
    expect([res.status, res.body]).toEqual(
      refused('pageToken: is not a token returned by ListAddSchoolRequests'),
    );
  });
});

describe('POST /addSchoolRequests/{requestId}/accept', () => {
  const path = `/addSchoolRequests/${requestId}/accept`;

  // The organizations service's rules (domain/organization-input.ts), now the document's schema.
  it.each<[string, unknown, string]>([
    [
      'a blank name',
      { type: 'OTHER', name: '  ' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'a country that is none',
      { type: 'OTHER', country: 'XX' },
      'body.country must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'a domain without a period',
      { type: 'OTHER', domains: ['localhost'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [
      'a URL for a domain',
      { type: 'OTHER', domains: ['https://springfield.edu'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [
      'a city with a control character',
      { type: 'OTHER', city: 'Spring\u0007field' },
      'body.city must not contain control characters',
    ],
    [
      'a state over 100 characters',
      { type: 'OTHER', state: 's'.repeat(101) },
      'body.state must NOT have more than 100 characters',
    ],
  ])('refuses %s, without a call', async (_name, body, message) => {
    const res = await call('POST', path, body);
    expect([res.status, res.body]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });

  it('passes a valid organization on (the country in upper case)', async () => {
    const res = await call('POST', path, {
      type: 'POST_SECONDARY',
      name: ' Springfield College ',
      country: 'us',
      domains: ['Springfield.EDU', 'cs.springfield.edu'],
      city: 'Springfield',
    });
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      [
        'acceptAddSchoolRequest',
        {
          requestId,
          organization: expect.objectContaining({
            type: 'POST_SECONDARY',
            name: ' Springfield College ',
            country: 'US',
            domains: ['Springfield.EDU', 'cs.springfield.edu'],
            city: 'Springfield',
          }),
        },
      ],
    ]);
  });
});

describe('POST /addSchoolRequests/{requestId}/decline', () => {
  const path = `/addSchoolRequests/${requestId}/decline`;

  it('takes a reason of several lines', async () => {
    const res = await call('POST', path, { reason: 'Not a school:\n\tit sells courses online.' });
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      ['declineAddSchoolRequest', { requestId, reason: 'Not a school:\n\tit sells courses online.' }],
    ]);
  });

  it('refuses a reason with another control character, without a call', async () => {
    const res = await call('POST', path, { reason: 'no\u0000' });
    expect([res.status, res.body]).toEqual(
      refused('body.reason must not contain control characters other than tabs and line breaks'),
    );
    expect(calls).toEqual([]);
  });
});

describe('POST /organizations (the CSV header the document describes)', () => {
  const document = openApiDocument('https://eligo.example.com') as {
    paths: Record<
      string,
      { post: { requestBody: { content: Record<string, { schema: { pattern: string } }> } } }
    >;
  };
  const header = new RegExp(
    document.paths['/organizations']!.post.requestBody.content['text/csv']!.schema.pattern,
    'u',
  );

  it.each([
    'externalId,name,type,country\nk1,A,OTHER,US\n',
    '\ufeffEXTERNALID , "Name",type,country,domains,city,state,loginUrl\r\n',
    '\n\nCountry,Type,Name,ExternalId',
    'externalId,name\n',
  ])('admits %j (any column names of the import, in any case and order)', (csv) => {
    expect(header.test(csv)).toBe(true);
  });

  it('reads a long run of whitespace in linear time (generators of test data search it on long strings)', () => {
    const started = Date.now();
    expect(header.test(`${' '.repeat(100_000)}x`)).toBe(false);
    expect(header.test(`externalId${'\t'.repeat(100_000)}"x`)).toBe(false);
    expect(header.test(`${' \r\n'.repeat(50_000)}x`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    '',
    '\n',
    'id,name,type,country\n',
    'externalId,name,type,country,\n',
    'externalId;name;type;country\n',
  ])('does not admit %j, which the import refuses as a whole', (csv) => {
    expect(header.test(csv)).toBe(false);
  });
});
