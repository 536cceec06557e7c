import { internal, invalidArgument, notFound } from '@eligo/runtime';
import { createDocumentValidator } from '../../test/document-validator';
import { decimalString } from './conversion';
import {
  accountId,
  createRecorder,
  operator,
  type ReportsStandIn,
  startReportsStandIn,
} from '../../test/reports-stand-in';

// The conversion routes as mounted by mountRest, through the real reports client against a stand-in
// ReportsService on a gRPC server: the optional token, the body checks (every refusal SEM) and the mapping.
const verificationId = 'fe'.repeat(12);
const goodToken = 'tok_account';

const { calls, planned, answer, reset } = createRecorder();
let standIn: ReportsStandIn;

beforeAll(async () => {
  standIn = await startReportsStandIn({
    handlers: { recordConversion: answer('recordConversion', () => ({ conversionId: 'conv_1' })) },
    tokens: { [goodToken]: [] },
    bodyLimit: '1kb',
  });
});
afterAll(() => standIn.stop());
beforeEach(() => reset());

const byVerification = `/conversion/verification/${verificationId}`;
const byTracking = `/conversion/account/${accountId}/trackingId/order-42`;

/** POSTs a raw body (JSON text unless a content type says otherwise). */
async function post(
  path: string,
  body: string | undefined,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await fetch(`${standIn.url}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const postJson = (path: string, body: unknown, token?: string) =>
  post(path, JSON.stringify(body), {
    'content-type': 'application/json',
    ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
  });

describe('POST /conversion/verification/{verificationId}', () => {
  it('records the conversion without a token: the verification id is the capability', async () => {
    const res = await postJson(byVerification, { amount: 12.5 });
    expect([res.status, res.body]).toEqual([200, { id: 'conv_1' }]);
    expect(createDocumentValidator().check('ConversionResponse', res.body)).toBeUndefined();
    expect(calls).toEqual([
      [
        'recordConversion',
        {
          target: { $case: 'verificationId', verificationId },
          amount: '12.5',
          currency: '',
          tags: [],
          accountId: '',
        },
      ],
    ]);
  });

  it("passes a valid token's account on, with the currency upper-cased and the tags", async () => {
    const res = await postJson(
      byVerification,
      { amount: 0, currency: 'eur', tags: ['spring', 'web'] },
      goodToken,
    );
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      [
        'recordConversion',
        {
          target: { $case: 'verificationId', verificationId },
          amount: '0',
          currency: 'EUR',
          tags: ['spring', 'web'],
          accountId,
        },
      ],
    ]);
  });

  it.each([['Bearer nope'], [`Bearer ${operator}`], ['Basic abc'], ['Bearer']])(
    'answers 401 SEM for the Authorization header %s, without a call',
    async (authorization) => {
      const res = await post(byVerification, JSON.stringify({ amount: 1 }), {
        'content-type': 'application/json',
        authorization,
      });
      expect([res.status, res.body]).toEqual([
        401,
        { systemErrorMessage: 'Access token is empty or invalid' },
      ]);
      expect(calls).toEqual([]);
    },
  );

  it.each([
    ['missing', '{}'],
    ['null', '{"amount":null}'],
    ['a string', '{"amount":"10"}'],
    ['a boolean', '{"amount":true}'],
    ['negative', '{"amount":-0.01}'],
    ['not finite', '{"amount":1e400}'],
    ['missing, with other fields wrong too', '{"currency":1,"other":2}'],
  ])('answers 400 "Invalid amount" (SEM) for an amount that is %s, without a call', async (_name, body) => {
    const res = await post(byVerification, body);
    expect([res.status, res.body]).toEqual([400, { systemErrorMessage: 'Invalid amount' }]);
    expect(calls).toEqual([]);
  });

  it.each([
    ['{"amount":1,"price":2}', 'body has unexpected property price (allowed: amount, currency, tags)'],
    ['{"amount":1,"currency":"EURO"}', 'body.currency must be an ISO 4217 currency code'],
    ['{"amount":1,"currency":"ABC"}', 'body.currency must be an ISO 4217 currency code'],
    ['{"amount":1,"currency":840}', 'body.currency must be string'],
    ['{"amount":1,"tags":"spring"}', 'body.tags must be array'],
    [
      '{"amount":1,"tags":[""]}',
      'body.tags[0] must be 1 to 64 characters once trimmed, without control characters',
    ],
    // A NUL in a tag used to reach Postgres: 500, and a breaker event.
    [
      '{"amount":1,"tags":["a\\u0000"]}',
      'body.tags[0] must be 1 to 64 characters once trimmed, without control characters',
    ],
    [
      `{"amount":1,"tags":["${'x'.repeat(65)}"]}`,
      'body.tags[0] must be 1 to 64 characters once trimmed, without control characters',
    ],
    [
      `{"amount":1,"tags":${JSON.stringify(Array.from({ length: 21 }, (_, i) => `t${i}`))}}`,
      'body.tags must NOT have more than 20 items',
    ],
    ['{"amount":100000000000}', 'Invalid amount'],
    ['[1]', 'body must be object'],
    ['{"amount":', 'Request body is not valid JSON'],
  ])('answers 400 SEM for %s, naming the problem, without a call', async (body, message) => {
    const res = await post(byVerification, body);
    expect([res.status, res.body]).toEqual([400, { systemErrorMessage: message }]);
    expect(calls).toEqual([]);
  });

  it('answers 400 SEM for a request without a JSON body, and 413 SEM for an oversized one', async () => {
    const none = await post(byVerification, 'amount=1', { 'content-type': 'text/plain' });
    expect([none.status, none.body]).toEqual([
      400,
      { systemErrorMessage: 'body is required (Content-Type: application/json)' },
    ]);
    const big = await postJson(byVerification, { amount: 1, tags: ['x'.repeat(2000)] });
    expect([big.status, big.body]).toEqual([413, { systemErrorMessage: 'Request body is too large' }]);
  });

  it.each(['nope', 'FE'.repeat(12), 'fe'.repeat(13)])(
    'answers 404 SEM for the malformed verification id %s, without a call',
    async (id) => {
      const res = await postJson(`/conversion/verification/${id}`, { amount: 1 });
      expect([res.status, res.body]).toEqual([404, { systemErrorMessage: 'Verification not found' }]);
      expect(calls).toEqual([]);
    },
  );

  it("passes the service's 404 and 400 on as SEM, without their errorIds", async () => {
    planned.set('recordConversion', notFound('Verification not found', { errorIds: ['noVerification'] }));
    const missing = await postJson(byVerification, { amount: 1 });
    expect([missing.status, missing.body]).toEqual([404, { systemErrorMessage: 'Verification not found' }]);
    planned.set('recordConversion', invalidArgument('Invalid currency', { errorIds: ['invalidRequest'] }));
    const currency = await postJson(byVerification, { amount: 1, currency: 'EUR' });
    expect([currency.status, currency.body]).toEqual([400, { systemErrorMessage: 'Invalid currency' }]);
  });

  it('keeps the generic 500 for a failure of the service', async () => {
    planned.set('recordConversion', internal('database is down'));
    const res = await postJson(byVerification, { amount: 1 });
    expect([res.status, res.body]).toEqual([
      500,
      { errorIds: ['internalServerError'], systemErrorMessage: 'Internal server error' },
    ]);
  });
});

describe('POST /conversion/account/{accountId}/trackingId/{trackingId}', () => {
  it("records the conversion against the tracking id of the token's account", async () => {
    const res = await postJson(byTracking, { amount: 99.99, currency: 'USD' }, goodToken);
    expect([res.status, res.body]).toEqual([200, { id: 'conv_1' }]);
    expect(calls).toEqual([
      [
        'recordConversion',
        {
          target: { $case: 'tracking', tracking: { accountId, trackingId: 'order-42' } },
          amount: '99.99',
          currency: 'USD',
          tags: [],
          accountId,
        },
      ],
    ]);
  });

  // The tracking id is chosen by the integrator (often an order number): without the account's token the
  // path would let anyone record conversions, and tell which tracking ids exist.
  it.each([
    ['without a token', byTracking, undefined],
    ['with an invalid token', byTracking, 'nope'],
    [
      'with a token of another account (as for an unknown one: no oracle)',
      `/conversion/account/${'bd'.repeat(12)}/trackingId/order-42`,
      goodToken,
    ],
    ['for a malformed account id', '/conversion/account/nope/trackingId/order-42', goodToken],
  ])('answers 401 SEM %s, without a call', async (_name, path, token) => {
    const res = await postJson(path, { amount: 1 }, token);
    expect([res.status, res.body]).toEqual([401, { systemErrorMessage: 'Access token is empty or invalid' }]);
    expect(calls).toEqual([]);
  });

  it('answers "Invalid amount" here too', async () => {
    const res = await postJson(byTracking, { amount: -5 }, goodToken);
    expect([res.status, res.body]).toEqual([400, { systemErrorMessage: 'Invalid amount' }]);
  });

  it('answers 404 SEM for an overlong tracking id, without a call', async () => {
    const tracking = await postJson(
      `/conversion/account/${accountId}/trackingId/${'t'.repeat(257)}`,
      { amount: 1 },
      goodToken,
    );
    expect([tracking.status, tracking.body]).toEqual([
      404,
      { systemErrorMessage: 'No verification with this tracking id' },
    ]);
    expect(calls).toEqual([]);
  });

  it("passes the service's unknown tracking id on as 404 SEM", async () => {
    planned.set(
      'recordConversion',
      notFound('No verification with this tracking id', { errorIds: ['noVerification'] }),
    );
    const res = await postJson(byTracking, { amount: 1 }, goodToken);
    expect([res.status, res.body]).toEqual([
      404,
      { systemErrorMessage: 'No verification with this tracking id' },
    ]);
  });
});

describe('decimalString', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [12.5, '12.5'],
    [0.1, '0.1'],
    [1e21, '1000000000000000000000'],
    [1.5e21, '1500000000000000000000'],
    [1e-7, '0.0000001'],
    [1.25e-7, '0.000000125'],
    [123456789.123, '123456789.123'],
  ])('writes %p as %p', (amount, text) => {
    expect(decimalString(amount)).toBe(text);
  });
});
