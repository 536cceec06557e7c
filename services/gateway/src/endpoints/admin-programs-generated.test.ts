import type { z } from 'zod';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { AccessTokenCreateRequest, AccountCreateRequest } from './admin-accounts';
import { ProgramCreateRequest } from './admin-programs-create';
import { programSettings, ProgramPatchRequest, RewardCodesRequest } from './admin-programs-input';

// The OpenAPI validator (Ajv) over the document captured before the admin endpoints became definitions, and
// the zod checks, on bodies made of values each check accepts or refuses, combined at random (a fixed seed):
// several faults in one body, so that the order in which the checks meet them is compared too.
let seed = 20_251_126;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

const emoji = (n: number) => '\u{1F600}'.repeat(n);
const anyValue = [null, 5, 0, -1, 1.5, 1e22, 'x', '', '  ', 'a\u0000', true, [], ['x'], [1, 1], {}, { a: 1 }];
const segments = ['student', 'military', 'age', 'senior', 'mover', 'pirate', 5, null];
const values: Record<string, readonly unknown[]> = {
  accountId: ['ab'.repeat(12), 'AB'.repeat(12), 'x', 5],
  name: ['P', '  Spring ', 'x'.repeat(201), ' \t ', 'a\nb', emoji(200), emoji(201), 5],
  segment: segments,
  subSegments: [
    [],
    ['veteran'],
    ['nurse'],
    ['veteran', 'veteran'],
    ['x', 'x'],
    [5],
    'veteran',
    null,
    ['homeBuyer', 'x'],
  ],
  mode: ['test', 'prod', 5, null],
  startDate: [
    '2030-01-01',
    '2024-02-30',
    '0000-12-31',
    '2016-12-31T23:59:60Z',
    '2030-06-01t12:00:00z',
    'x',
    null,
  ],
  endDate: ['2030-06-01T12:00:00.5+02:00', '2023-02-29', '2030-01-01T00:00:00', 7, null],
  offerType: ['staticCode', 'rewardPool', 'noCode', 'x', null],
  rewardCode: ['SPRING', 'SPRING 25', 'C'.repeat(129), emoji(128), null, 5],
  consolationRewardCode: ['C', 'C C', null, 5],
  redirectUrl: [
    'https://shop.example.com/?x=1#top',
    'javascript:alert(1)',
    `https://a.example/${'x'.repeat(2040)}`,
    null,
  ],
  minAge: [18, 0, 151, -1, 1.5, '18', null, 1e22],
  maxAge: [25, 151, null, 'x'],
  countries: [['US'], ['us', 'DE'], ['US', 'US'], ['XX'], [5], 'US', null, Array(251).fill('US')],
  maxRejections: [0, 10, 11, -1.5, '3', null],
  maxReviewTime: ['2_MIN', '1_WEEK', null, 5],
  estimatedReviewTime: ['A_FEW_DAYS', 'x', null],
  organizationRules: [
    null,
    {},
    { types: ['PUB'] },
    { types: ['K12', 'K12'] },
    { includeIds: [7, 7] },
    { includeIds: [1e22] },
    { excludeIds: [0, 'a'] },
    { countries: ['xx'] },
    { colour: 1 },
    'x',
  ],
  theme: [
    null,
    {},
    { intl: { colour: 'red' } },
    { intl: { locale: 'x-klingon', messages: { 'bad key': 1 } } },
    { intl: { errorId: { noSuchError: 'x' } } },
    { intl: { errorId: { invalidEmail: 5 } } },
    { intl: { messages: { ok: 5, 'bad key': 'x' } } },
    { intl: { messages: { ok: emoji(2001) } } },
    { customCss: '</style>' },
    { customCss: 5, intl: 5 },
    'dark',
  ],
  webhook: [
    null,
    {},
    { callbackUri: 'https://h.example/x' },
    { callbackUri: 'https://h.example/#x' },
    { callbackUri: 'https://h.example', notifierEventTypes: ['X', 'X'] },
    { callbackUri: 5, x: 1 },
  ],
  verificationLimit: [
    null,
    {},
    { quantity: 1, days: 1 },
    { quantity: 1e22, days: 1 },
    { quantity: 1.5, days: 3651 },
    { days: 'x' },
    5,
  ],
  subjectTokenKey: ['-----BEGIN PUBLIC KEY-----\nabc', '', 'a\u0000', 'x'.repeat(8193), null],
  requireAccountTokenToCreate: [true, null, 'true'],
  embedOrigins: [
    [],
    ['https://shop.example', 'http://localhost:3000'],
    ['https://Shop.Example:443'],
    ['https://*.example.com'],
    ['https://shop.example/'],
    ['http://shop.example'],
    ['https://a.example', 'https://a.example'],
    [5],
    'https://shop.example',
    null,
    Array(21).fill('https://a.example'),
    [`https://${'a'.repeat(250)}.example`],
  ],
  instantMatch: [
    null,
    {},
    { sources: [] },
    { sources: [{ type: 'list' }, { type: 'http', subSegments: [] }], http: { url: 'https://h.example/c' } },
    { sources: [{ type: 'http' }], http: { url: 'https://h.example/c', secret: `whsec_${'A'.repeat(44)}` } },
    { sources: [{ type: 'ldap' }] },
    { sources: [{ type: 'list', subSegments: ['x'] }] },
    { sources: [], http: { url: 'https://h.example/#x' } },
    { sources: [], http: { secret: 'short' } },
    { sources: [{}, {}, {}] },
    { sources: 'list' },
  ],
  codes: [['A'], [], ['A', 2], [' A1 ', 'B2\t'], ['B 2'], 'A', Array(10_001).fill('A'), [null]],
  roles: [
    ['REPORTER'],
    ['ADMIN'],
    ['PII', 'PII'],
    'PII',
    ['REPORTER', 'PII', 'BULK_VERIFIER', 'PII'],
    [5, 5],
  ],
};

function body(keys: readonly string[], required: readonly string[]): unknown {
  if (random() < 0.02) return pick([null, 5, 'x', [], [1], true]);
  const result: Record<string, unknown> = {};
  for (const key of required) if (random() < 0.85) result[key] = values[key]![0];
  for (let n = Math.floor(random() * 5); n > 0; n -= 1) {
    const key = pick(keys);
    result[key] = random() < 0.8 ? pick(values[key]!) : pick(anyValue);
  }
  if (random() < 0.1) result.surelyUnknown = 1;
  if (random() < 0.3 && keys.includes('segment')) result.segment = pick(segments);
  if (random() < 0.3 && keys.includes('offerType')) result.offerType = 'staticCode';
  return result;
}

const settings = Object.keys(programSettings);

it.each<[string, z.ZodType, string[], string[], number]>([
  [
    'ProgramCreateRequest',
    ProgramCreateRequest,
    ['accountId', ...settings],
    ['accountId', 'name', 'segment'],
    20_000,
  ],
  ['ProgramPatchRequest', ProgramPatchRequest, settings, [], 20_000],
  ['RewardCodesRequest', RewardCodesRequest, ['codes'], ['codes'], 1000],
  ['AccountCreateRequest', AccountCreateRequest, ['name'], ['name'], 1000],
  ['AccessTokenCreateRequest', AccessTokenCreateRequest, ['name', 'roles'], ['name'], 1000],
])('%s answers generated bodies as the OpenAPI validator did', (name, schema, keys, required, count) => {
  const differences: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const generated = body(keys, required);
    const [was, is] = [ajvSaidBefore(name, generated), zodSays(schema, generated)];
    if (was !== is) differences.push(`${JSON.stringify(generated)}: ${was} / ${is}`);
  }
  expect(differences).toEqual([]);
});
