import { countries } from 'countries-list';
import { segmentNames, SEGMENTS } from '@eligo/vocabulary';
import { createDocumentValidator } from '../../test/document-validator';
import { COUNTRY_CODES } from './schemas/countries';
import { openApiDocument } from './document';

// The admin API's part of the document: every 400 it answers is ER, and the vocabularies of its schemas are
// the services' own lists.
type Json = Record<string, unknown>;
const document = openApiDocument('https://eligo.example.com') as {
  paths: Record<string, Json>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};
const { check } = createDocumentValidator();

const adminOperations = Object.entries(document.paths).flatMap(([path, item]) =>
  ['get', 'post', 'patch', 'delete']
    .map((method) => ({ path, method, operation: item[method] as Json | undefined }))
    .filter((o): o is { path: string; method: string; operation: Json } => o.operation !== undefined)
    .filter((o) => (o.operation.tags as string[]).includes('admin')),
);

/** The schema a response names, through a shared response where it is one. */
function responseSchema(response: Json): string {
  const shared = response.$ref as string | undefined;
  const resolved = shared ? document.components.responses[shared.split('/').pop()!]! : response;
  const content = resolved.content as Record<string, { schema: { $ref: string } }>;
  return content['application/json']!.schema.$ref;
}

it.each(adminOperations.filter((o) => (o.operation.responses as Json)['400']))(
  'documents the 400 of $method $path as ER (errorIds [invalidRequest])',
  ({ operation }) => {
    const response = (operation.responses as Record<string, Json>)['400']!;
    expect(responseSchema(response)).toBe('#/components/schemas/ErrorResponse');
  },
);

it('takes no empty query value (leave a parameter out instead): cursors and page tokens are 1 character or more', () => {
  const parameters = adminOperations.flatMap(({ path, operation }) =>
    ((operation.parameters as (Json & { name: string; in: string; schema: Json })[] | undefined) ?? [])
      .filter((p) => p.in === 'query')
      .map((p) => ({ at: `${path} ${p.name}`, allowEmptyValue: p.allowEmptyValue, schema: p.schema })),
  );
  expect(parameters.map((p) => p.at).sort()).toEqual(
    [
      '/programs/{programId}/webhook/deliveries limit',
      '/programs/{programId}/webhook/deliveries cursor',
      '/programs/{programId}/webhook/deliveries verificationId',
      '/messages limit',
      '/messages cursor',
      '/messages requestId',
      '/messages verificationId',
      '/parked-events beforeId',
      '/parked-events consumer',
      '/parked-events limit',
      '/parked-events module',
      '/parked-events status',
      '/addSchoolRequests status',
      '/addSchoolRequests programId',
      '/addSchoolRequests pageSize',
      '/addSchoolRequests pageToken',
      '/reviews status',
      '/reviews programId',
      '/reviews segment',
      '/reviews order',
      '/reviews limit',
      '/reviews cursor',
      '/pii-access accountId',
      '/pii-access pageSize',
      '/pii-access pageToken',
      '/staff limit',
      '/staff cursor',
      '/audit actor',
      '/audit action',
      '/audit from',
      '/audit to',
      '/audit limit',
      '/audit cursor',
      '/audit/export actor',
      '/audit/export action',
      '/audit/export from',
      '/audit/export to',
      '/accounts name',
      '/accounts limit',
      '/accounts cursor',
      '/accounts/{accountId}/tokens limit',
      '/accounts/{accountId}/tokens cursor',
      '/programs accountId',
      '/programs segment',
      '/programs mode',
      '/programs name',
      '/programs limit',
      '/programs cursor',
    ].sort(),
  );
  for (const p of parameters) {
    expect([p.at, p.allowEmptyValue]).toEqual([p.at, undefined]);
    if (/ (cursor|pageToken)$/.test(p.at)) expect([p.at, p.schema.minLength]).toEqual([p.at, 1]);
  }
});

describe('the vocabularies of the program schemas are the services’ lists', () => {
  const settings = document.components.schemas.ProgramPatchRequest!.properties as Record<string, Json>;

  it('segments and sub-segments come from the programs service', () => {
    expect(settings.segment!.enum).toEqual(segmentNames);
    expect((settings.subSegments!.items as Json).enum).toEqual(Object.values(SEGMENTS).flat());
  });

  it('countries come from countries-list, the package the programs and organizations services check with', () => {
    expect(COUNTRY_CODES).toEqual(Object.keys(countries).sort());
    for (const code of ['US', 'us', 'Gb', 'XK'])
      expect([code, check('ProgramPatchRequest', { countries: [code] })]).toEqual([code, undefined]);
    expect(check('ProgramPatchRequest', { countries: ['UK'] })).toBe(
      'body.countries[0] must be an ISO 3166-1 alpha-2 country code',
    );
  });

  it('a new program takes the sub-segments of its own segment only', () => {
    const create = (segment: string, subSegments: string[]) =>
      check('ProgramCreateRequest', { accountId: 'ab'.repeat(12), name: 'P', segment, subSegments });
    for (const segment of segmentNames) {
      for (const sub of Object.values(SEGMENTS).flat()) {
        const own = (SEGMENTS[segment] as readonly string[]).includes(sub);
        expect([segment, sub, create(segment, [sub]) === undefined]).toEqual([segment, sub, own]);
      }
    }
  });
});

describe('URLs the document admits are RFC 3986 URIs the programs service takes (WHATWG, http(s), no credentials)', () => {
  it.each([
    'https://example.com',
    'HTTP://Example.COM:8080/a/b?c=d&e=%20f',
    'http://localhost/',
    'http://127.0.0.1:65535',
    'http://[::1]/hook',
    'http://[2001:db8:85a3::8a2e:370:7334]:8443/x',
    'https://a-b.c-d.example/?q=!$&()*+,;=:@~',
    'https://example.com/a%20b/c?d=%C3%A9',
  ])('%s', (value) => {
    expect(check('CallbackUri', value)).toBeUndefined();
    // Answered back in the program configuration, whose schema says format: uri.
    expect(check('Webhook', { callbackUri: value, notifierEventTypes: [], created: 0 })).toBeUndefined();
    const url = new URL(value);
    expect([
      url.protocol === 'http:' || url.protocol === 'https:',
      url.hostname !== '',
      url.username,
    ]).toEqual([true, true, '']);
  });

  it.each([
    'https://example.123',
    'https://1.2.3.4.5',
    'https://256.1.1.1',
    'https://xn--a.example',
    'https://exa mple.com',
    'https://example.com:65536',
    'https://user@example.com',
    'https://bücher.example',
    'ftp://example.com',
    'https:example.com',
    'https://example.com/#fragment',
    'https://example.com/\\path',
    'https://example.com/"quoted"',
    'https://example.com/a%zz',
  ])('refuses %s', (value) => {
    expect(check('CallbackUri', value)).toMatch(/^body must be an absolute http or https URL/);
  });
});
