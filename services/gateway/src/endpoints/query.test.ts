import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { documentBefore } from '../../test/document-before';
import { readQuery } from '../../test/query-reader';
import { defineEndpoint } from './define';
import { endpointDocument } from './openapi';
import { searchProgramOrganizations } from './organization';
import { hexId, hexIdList, oneOf, text } from './query';

// The organization searches' query (endpoints/organization.ts), on a path of no parameters of its own.
const search = defineEndpoint({
  method: 'get',
  path: '/organization/search',
  operationId: 'x',
  summary: 'x',
  tags: [],
  security: [],
  query: searchProgramOrganizations.query,
  responses: { '200': { description: 'x' } },
});

const fields = defineEndpoint({
  method: 'get',
  path: '/report/fields',
  operationId: 'y',
  summary: 'y',
  tags: [],
  security: [],
  query: z.object({
    programIds: hexIdList({
      maxItems: 100,
      description:
        'Programs of the account, repeated (programIds=a&programIds=b) and/or comma-separated, at most ' +
        '100 (default: every program of the account)',
    }).optional(),
  }),
  responses: { '200': { description: 'y' } },
});

const strict = defineEndpoint({
  method: 'get',
  path: '/z',
  operationId: 'z',
  summary: 'z',
  tags: [],
  security: [],
  strictQuery: true,
  query: z.object({
    status: oneOf(['PENDING', 'DONE']).optional(),
    id: hexId().optional(),
    consumer: text({ maxLength: 64, description: 'c' }).optional(),
  }),
  responses: { '200': { description: 'z' } },
});

/** The parameters the hand-written document stated for GET `path`. */
const parametersBefore = (path: string) =>
  (documentBefore.paths[path]!.get as { parameters: unknown[] }).parameters;

describe('query parameters of definitions', () => {
  it('state the parameters as the hand-written document did', () => {
    const paths = endpointDocument([search, fields], 'https://eligo.test').paths;
    expect(paths['/organization/search']!.get).toMatchObject({
      parameters: parametersBefore('/program/{programId}/organization'),
    });
    expect(paths['/report/fields']!.get).toMatchObject({
      parameters: parametersBefore('/report/fields'),
    });
    const z = endpointDocument([strict], 'https://eligo.test').paths['/z']!.get as { parameters: unknown[] };
    expect(z.parameters).toEqual([
      { name: 'status', in: 'query', schema: { type: 'string', enum: ['PENDING', 'DONE'] } },
      { name: 'id', in: 'query', schema: { type: 'string', pattern: ID_PATTERN } },
      { name: 'consumer', in: 'query', description: 'c', schema: { type: 'string', maxLength: 64 } },
    ]);
  });

  it.each<[Record<string, unknown>, unknown]>([
    [{}, 'query.name is required'],
    [{ name: '' }, 'query.name is required'],
    [{ name: ['a', 'b'] }, 'query.name must be given once, as a plain value'],
    [{ name: 'x'.repeat(1001) }, 'query.name must be at most 1000 characters'],
    [{ name: 'a\u0000b' }, 'query.name must not contain control characters'],
    [{ name: ' ok\t' }, { name: ' ok\t' }],
    [{ name: 'ok', country: 'zz' }, 'query.country: "zz" is not an ISO 3166-1 alpha-2 country code'],
    [
      { name: 'ok', country: 'us' },
      { name: 'ok', country: 'US' },
    ],
    [{ name: 'ok', country: '' }, { name: 'ok' }],
    [{ name: 'ok', limit: '0' }, 'query.limit must be an integer from 1 to 100'],
    [{ name: 'ok', limit: '' }, 'query.limit must be an integer from 1 to 100'],
    [{ name: 'ok', limit: '1e1' }, 'query.limit must be an integer from 1 to 100'],
    [
      { name: 'ok', limit: '100' },
      { name: 'ok', limit: 100 },
    ],
  ])('reads the search query %j as the hand-written readers did', (query, expected) => {
    expect(readQuery(search, query)).toEqual(expected);
  });

  it.each<[Record<string, unknown>, unknown]>([
    [{}, {}],
    [{ programIds: '' }, 'query.programIds must name at least one id (leave it out to mean all)'],
    [{ programIds: ['a', 'b'] }, 'query.programIds must be ids of 24 lowercase hex characters'],
    [{ programIds: 'aaaaaaaaaaaaaaaaaaaaaaaa,' }, { programIds: ['aaaaaaaaaaaaaaaaaaaaaaaa'] }],
    [
      { programIds: Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0')) },
      'query.programIds must have at most 100 ids',
    ],
    [{ programIds: [{}] }, 'query.programIds must be plain values'],
  ])('reads the id list %j as the hand-written reader did', (query, expected) => {
    expect(readQuery(fields, query)).toEqual(expected);
  });

  it.each<[Record<string, unknown>, unknown]>([
    [{ stauts: 'PENDING' }, 'query has unexpected parameter stauts (allowed: status, id, consumer)'],
    [{ status: '' }, 'query.status must not be empty (leave it out instead)'],
    [{ status: 'NOPE' }, 'query.status must be one of PENDING, DONE'],
    [{ id: 'ABC' }, 'query.id must be 24 lowercase hex characters'],
    [{ consumer: 'x'.repeat(65) }, 'query.consumer must be at most 64 characters'],
    [
      { status: 'DONE', id: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
      { status: 'DONE', id: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
    ],
  ])('reads the strict query %j as the hand-written readers did', (query, expected) => {
    expect(readQuery(strict, query)).toEqual(expected);
  });
});
