import type { Request, Response } from 'express';
import type { EndpointDefinition } from '../src/endpoints/define';
import { requestQuery } from '../src/endpoints/query';

type Row = [query: Record<string, unknown>, answer: unknown];

/**
 * Test support for the definitions' query parameters (endpoints/query.ts). The expected answers are those
 * of the hand-written readers the definitions replaced (validation/query-params.ts, routes/plain-query.ts),
 * captured before they were removed.
 */

/** The refusal requestQuery answers for a query, or the values it read. */
export function readQuery(definition: EndpointDefinition, query: Record<string, unknown>): unknown {
  const res = { locals: {} } as Response;
  let problem: string | undefined;
  requestQuery(definition)({ query } as unknown as Request, res, (error?: unknown) => {
    problem = (error as Error | undefined)?.message;
  });
  return problem ?? res.locals.query;
}

/**
 * The limit (1 to 100) and cursor of the admin lists paged by cursor, read alike wherever they are taken;
 * `allowed` is the list's parameters, as the refusal of an unknown one names them.
 */
export const cursorPagingRows = (allowed: string): Row[] => [
  [{}, {}],
  [{ stauts: 'x' }, `query has unexpected parameter stauts (allowed: ${allowed})`],
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
  // Two bad values: the one read first is named.
  [{ limit: '0', cursor: 'a\u0000' }, 'query.limit must be an integer from 1 to 100'],
];

/** The pageSize (1 to 500) and pageToken of the admin lists paged by token, as cursorPagingRows. */
export const tokenPagingRows = (allowed: string): Row[] => [
  [{}, {}],
  [{ stauts: 'x' }, `query has unexpected parameter stauts (allowed: ${allowed})`],
  [{ pageToken: 'tok' }, { pageToken: 'tok' }],
  [{ pageToken: 'a\nb' }, 'query.pageToken must not contain control characters'],
  [{ pageToken: '\tabc' }, 'query.pageToken must not contain control characters'],
  [{ pageToken: 'x'.repeat(1001) }, 'query.pageToken must be at most 1000 characters'],
  [{ pageSize: '500' }, { pageSize: 500 }],
  [{ pageSize: '501' }, 'query.pageSize must be an integer from 1 to 500'],
  [{ pageSize: '0' }, 'query.pageSize must be an integer from 1 to 500'],
];
