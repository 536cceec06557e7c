import type { Request, Response } from 'express';
import type { z } from 'zod';
import { ReviewDecisionInput, listReviews } from './admin-reviews';
import { checkBody } from './body-check';
import type { EndpointDefinition } from './define';
import { requestQuery } from './query';

// What the OpenAPI validator (Ajv over the hand-written openapi/schemas/verification-admin.ts, its
// if/then/else included) answered for each decision, and what the hand-written readers
// (validation/query-params.ts) answered for each query, captured before the schemas became the definitions'
// zod schemas: the definitions must answer the same.

/** What checkBody answers: undefined for a body it takes, else the refusal. */
function answer(schema: z.ZodType, body: unknown): string | undefined {
  const checked = checkBody(schema, body);
  return checked.ok ? undefined : checked.problem;
}

/** The refusal requestQuery answers, or the values it read. */
function read(definition: EndpointDefinition, query: Record<string, unknown>): unknown {
  const res = { locals: {} } as Response;
  let problem: string | undefined;
  requestQuery(definition)({ query } as unknown as Request, res, (error?: unknown) => {
    problem = (error as Error | undefined)?.message;
  });
  return problem ?? res.locals.query;
}

describe('ReviewDecisionInput', () => {
  it.each<[unknown, string | undefined]>([
    [{}, 'body.rejectionReasons is required (a rejection takes 1 to 10 reasons)'],
    [{ decision: 'approve' }, undefined],
    [{ decision: 'reject' }, 'body.rejectionReasons is required (a rejection takes 1 to 10 reasons)'],
    [
      { decision: 'reject', rejectionReasons: [] },
      'body.rejectionReasons must NOT have fewer than 1 items (a rejection takes 1 to 10 reasons)',
    ],
    [{ decision: 'reject', rejectionReasons: ['DOCUMENT_UNREADABLE'] }, undefined],
    [
      {
        decision: 'reject',
        rejectionReasons: [
          'REASON_0',
          'REASON_1',
          'REASON_2',
          'REASON_3',
          'REASON_4',
          'REASON_5',
          'REASON_6',
          'REASON_7',
          'REASON_8',
          'REASON_9',
          'REASON_10',
        ],
      },
      'body.rejectionReasons must NOT have more than 10 items',
    ],
    [
      { decision: 'reject', rejectionReasons: ['X'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'reject', rejectionReasons: ['blurry photo'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'reject', rejectionReasons: 'DOCUMENT_EXPIRED' },
      'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)',
    ],
    [
      { decision: 'approve', note: 'x' },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [
      { decision: 'approve', rejectionReasons: ['DOCUMENT_UNREADABLE'] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
    [{ decision: 'approve', rejectionReasons: [] }, undefined],
    [{ decision: 'maybe' }, 'body.decision must be one of approve, reject'],
    [
      { decision: 'maybe', note: 1 },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [
      { note: 1, decision: 'approve' },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [
      { decision: 'approve', rejectionReasons: 'x' },
      'body.rejectionReasons must be array (an approval takes no rejection reasons)',
    ],
    [{ rejectionReasons: 'x' }, 'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)'],
    [
      { rejectionReasons: [] },
      'body.rejectionReasons must NOT have fewer than 1 items (a rejection takes 1 to 10 reasons)',
    ],
    [{ rejectionReasons: ['AB'] }, 'body.decision is required'],
    [{ decision: 'reject', rejectionReasons: ['AB', 3] }, 'body.rejectionReasons[1] must be string'],
    [
      { decision: 'reject', rejectionReasons: ['AB'], note: 1 },
      'body has unexpected property note (allowed: decision, rejectionReasons)',
    ],
    [{ decision: null }, 'body.decision must be string'],
    [
      { decision: 'approve', rejectionReasons: null },
      'body.rejectionReasons must be array (an approval takes no rejection reasons)',
    ],
    [
      { decision: 'reject', rejectionReasons: null },
      'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)',
    ],
    [[], 'body must be object'],
    [null, 'body must be object'],
    ['reject', 'body must be object'],
    [{ decision: ['reject'] }, 'body.decision must be string'],
    [
      { decision: 'reject', rejectionReasons: Array(11).fill(1) },
      'body.rejectionReasons must NOT have more than 10 items',
    ],
    [
      { decision: 'approve', rejectionReasons: [1] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
    [
      { decision: 'reject', rejectionReasons: ['A' + 'x'.repeat(63)] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [
      { decision: 'reject', rejectionReasons: ['A' + 'X'.repeat(64)] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [{ decision: 'reject', rejectionReasons: ['DOCUMENT_EXPIRED', 'DOCUMENT_EXPIRED'] }, undefined],
    [
      { decision: 7, rejectionReasons: ['AB'] },
      'body.rejectionReasons must NOT have more than 0 items (an approval takes no rejection reasons)',
    ],
    [{ decision: 'reject', rejectionReasons: ['A' + 'X'.repeat(63)] }, undefined],
    [{ decision: 'reject', rejectionReasons: ['A_1', 'B2'] }, undefined],
    [
      { decision: 'reject', rejectionReasons: ['1AB'] },
      'body.rejectionReasons[0] must be an upper-case code of 2 to 64 letters, digits and _',
    ],
    [{ decision: 'reject', rejectionReasons: [null] }, 'body.rejectionReasons[0] must be string'],
    [
      { decision: 'reject', rejectionReasons: {} },
      'body.rejectionReasons must be array (a rejection takes 1 to 10 reasons)',
    ],
    [{ decision: 'APPROVE' }, 'body.decision must be one of approve, reject'],
  ])('judges %j as the OpenAPI validator did', (body, expected) => {
    expect(answer(ReviewDecisionInput, body)).toBe(expected);
  });
});

describe('GET /reviews', () => {
  it.each<[Record<string, unknown>, unknown]>([
    [{}, {}],
    [{ stauts: 'x' }, 'query has unexpected parameter stauts (allowed: status, limit, cursor)'],
    [{ cursor: '' }, 'query.cursor must not be empty (leave it out instead)'],
    [{ limit: '' }, 'query.limit must not be empty (leave it out instead)'],
    [{ limit: '0' }, 'query.limit must be an integer from 1 to 100'],
    [{ limit: '1' }, { limit: 1 }],
    [{ limit: '100' }, { limit: 100 }],
    [{ limit: '101' }, 'query.limit must be an integer from 1 to 100'],
    [{ limit: '500' }, 'query.limit must be an integer from 1 to 100'],
    [{ limit: '501' }, 'query.limit must be an integer from 1 to 100'],
    [{ limit: 'x' }, 'query.limit must be an integer from 1 to 100'],
    [{ limit: '1e1' }, 'query.limit must be an integer from 1 to 100'],
    [{ limit: ['1', '2'] }, 'query.limit must be given once, as a plain value'],
    [{ cursor: 'abc' }, { cursor: 'abc' }],
    [{ cursor: 'a\u0000b' }, 'query.cursor must not contain control characters'],
    [{ cursor: ' abc\t' }, 'query.cursor must not contain control characters'],
    [{ cursor: 'x'.repeat(1000) }, { cursor: 'x'.repeat(1000) }],
    [{ cursor: 'x'.repeat(1001) }, 'query.cursor must be at most 1000 characters'],
    [{ cursor: ['a', 'b'] }, 'query.cursor must be given once, as a plain value'],
    [{ status: 'PENDING' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: 'pending' }, { status: 'pending' }],
    [{ status: 'parked' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: 'all' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: 'open' }, 'query.status must be one of pending, approved, rejected'],
    [{ status: ['pending', 'approved'] }, 'query.status must be given once, as a plain value'],
    [
      { status: 'pending', limit: '20', cursor: 'abc' },
      { status: 'pending', limit: 20, cursor: 'abc' },
    ],
    [{ limit: '0', cursor: 'a\u0000' }, 'query.limit must be an integer from 1 to 100'],
    [{ status: 'x', limit: 'x' }, 'query.status must be one of pending, approved, rejected'],
  ])('reads %j as the hand-written readers did', (query, expected) => {
    expect(read(listReviews, query)).toEqual(expected);
  });
});
