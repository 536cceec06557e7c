import type { z } from 'zod';
import { segmentNames } from '@eligo/vocabulary';
import { zodSays } from '../../test/check-answers';
import { documentBefore as before } from '../../test/document-before';
import { createDocumentValidator } from '../../test/document-validator';
import { cursorPagingRows, readQuery } from '../../test/query-reader';
import { withoutStaffAccess } from '../../test/staff-document';
import { openApiDocument } from '../openapi/document';
import {
  adminListPrograms,
  ProgramSummary,
  ProgramSummaryPage,
  RewardCodePoolLevel,
  WebhookSecretRotated,
} from './admin-program-lists';

// The program list, the pool level and the secret rotation are new: their zod checks must accept and refuse
// what the served document's JSON Schema (read by Ajv) does, in the same words.
const schemas: Record<string, z.ZodType> = {
  ProgramSummary,
  ProgramSummaryPage,
  RewardCodePoolLevel,
  WebhookSecretRotated,
};
const { check } = createDocumentValidator();

const summary = {
  programId: 'ab'.repeat(12),
  accountId: 'cd'.repeat(12),
  name: 'Spring',
  segment: 'student',
  mode: 'test',
  offerType: 'rewardPool',
  created: 1_700_000_000_000,
  updated: 1_700_000_000_001,
};
const { updated: _updated, ...withoutUpdated } = summary;
const level = { pooled: true, total: 30, unused: 2, claimed: 28, low: true, lowThreshold: 3 };

/** [schema, body, the one answer both give (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  ['ProgramSummary', summary, undefined],
  ['ProgramSummary', { ...summary, mode: 'staging' }, 'body.mode must be one of test, live'],
  [
    'ProgramSummary',
    { ...summary, offerType: 'coupon' },
    'body.offerType must be one of staticCode, rewardPool, noCode',
  ],
  ['ProgramSummary', withoutUpdated, 'body.updated is required'],
  ['ProgramSummaryPage', { programs: [summary], nextCursor: 'abc' }, undefined],
  ['ProgramSummaryPage', { programs: [summary] }, 'body.nextCursor is required'],
  ['RewardCodePoolLevel', level, undefined],
  [
    'RewardCodePoolLevel',
    { pooled: false, total: 0, unused: 0, claimed: 0, low: false, lowThreshold: 0 },
    undefined,
  ],
  ['RewardCodePoolLevel', { ...level, unused: -1 }, 'body.unused must be >= 0'],
  ['RewardCodePoolLevel', { ...level, low: 'yes' }, 'body.low must be boolean'],
  ['WebhookSecretRotated', { programId: 'ab'.repeat(12), webhookSecret: 'whsec_abc' }, undefined],
  ['WebhookSecretRotated', { programId: 'ab'.repeat(12) }, 'body.webhookSecret is required'],
];

describe('the program list schemas', () => {
  it.each(cases)('%s: answers %j as the document says', (name, body, answer) => {
    expect(zodSays(schemas[name]!, body)).toBe(answer);
    expect(check(name, body)).toBe(answer);
  });
});

describe('the program list query', () => {
  const allowed = 'accountId, segment, mode, name, limit, cursor';
  it.each<[Record<string, unknown>, unknown]>([
    ...cursorPagingRows(allowed),
    [
      { accountId: 'ab'.repeat(12), segment: 'military', mode: 'live', name: 'Spring', limit: '3' },
      { accountId: 'ab'.repeat(12), segment: 'military', mode: 'live', name: 'Spring', limit: 3 },
    ],
    [{ accountId: 'ACME' }, 'query.accountId must be 24 lowercase hex characters'],
    [{ segment: 'pirate' }, `query.segment must be one of ${segmentNames.join(', ')}`],
    [{ mode: 'staging' }, 'query.mode must be one of test, live'],
    [{ mode: '' }, 'query.mode must not be empty (leave it out instead)'],
    [{ name: 'a\u0000b' }, 'query.name must not contain control characters'],
    [{ name: 'x'.repeat(101) }, 'query.name must be at most 100 characters'],
  ])('%#: reads %j', (query, expected) => {
    expect(readQuery(adminListPrograms, query)).toEqual(expected);
  });
});

describe('the program paths', () => {
  const now = withoutStaffAccess(openApiDocument('https://eligo.test') as typeof before);
  type Operation = { responses: Record<string, Record<string, unknown>> };

  it('add GET /programs beside the POST, which stays as it was but for the rule of embedOrigins', () => {
    const { get, post } = now.paths['/programs']!;
    expect((get as { operationId: string }).operationId).toBe('adminListPrograms');
    expect(Object.keys((post as Operation).responses)).toEqual(
      Object.keys((before.paths['/programs']!.post as Operation).responses),
    );
  });

  it('answer the rotation 409 ER without a webhook, and the new secret uncacheable', () => {
    const rotate = now.paths['/programs/{programId}/webhook/secret']!.post as Operation;
    expect(rotate.responses['409']).toMatchObject({
      description: expect.stringContaining('[noWebhook]'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    });
    expect(rotate.responses['200']!.headers).toMatchObject({
      'Cache-Control': { schema: { const: 'no-store' } },
    });
    expect(rotate.responses['404']).toEqual({ $ref: '#/components/responses/ProgramNotFound' });
  });
});
