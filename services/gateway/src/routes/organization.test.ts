import type { OrganizationsClient } from '../clients/organizations.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';

// POST /organization/addSchool as mounted by mountRest, against a recording organizations stand-in: what the
// body may carry besides the spec's fields (trackingId) and what reaches the service.
const programId = 'ab'.repeat(12);
const calls: [string, unknown][] = [];
const organizations = {
  requestAddSchool: async (req: unknown) => {
    calls.push(['requestAddSchool', req]);
    return { requestId: '12'.repeat(12) };
  },
} as unknown as OrganizationsClient;

let url: string;
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({ organizations, bodyLimit: '10kb' });
  url = `${app.origin}/rest/v2`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
});

const request = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.edu',
  schoolName: 'Analytical College',
  schoolDomain: 'analytical.edu',
  schoolCountry: 'US',
  programId,
};

async function addSchool(body: unknown) {
  const res = await fetch(`${url}/organization/addSchool`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as unknown) };
}

describe('POST /organization/addSchool', () => {
  it('passes the request on, with an empty trackingId when none is given', async () => {
    expect((await addSchool(request)).status).toBe(204);
    expect(calls).toEqual([['requestAddSchool', { ...request, trackingId: '' }]]);
  });

  it("passes the client's trackingId on, to be kept with the request", async () => {
    expect((await addSchool({ ...request, trackingId: 'crm-ticket 42/β' })).status).toBe(204);
    expect(calls).toEqual([['requestAddSchool', { ...request, trackingId: 'crm-ticket 42/β' }]]);
  });

  it.each<[string, unknown, string]>([
    ['an empty trackingId', '', 'body.trackingId must NOT have fewer than 1 characters'],
    [
      'a trackingId over 256 characters',
      'x'.repeat(257),
      'body.trackingId must NOT have more than 256 characters',
    ],
    ['a control character in trackingId', 'a\u0000b', 'body.trackingId must not contain control characters'],
    ['a trackingId that is a number', 42, 'body.trackingId must be string'],
  ])('refuses %s with 400 invalidRequest, without a call', async (_name, trackingId, message) => {
    const res = await addSchool({ ...request, trackingId });
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it('still refuses an unknown property, naming the allowed ones', async () => {
    const res = await addSchool({ ...request, phone: '1' });
    expect([res.status, res.body]).toEqual([
      400,
      {
        errorIds: ['invalidRequest'],
        systemErrorMessage:
          'body has unexpected property phone (allowed: firstName, lastName, email, schoolName, schoolDomain, ' +
          'schoolCountry, programId, trackingId)',
      },
    ]);
    expect(calls).toEqual([]);
  });
});
