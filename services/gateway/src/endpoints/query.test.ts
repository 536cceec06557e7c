import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { COUNTRY_OR_EMPTY_PATTERN } from '../openapi/schemas/countries';
import { trimmedName } from '../openapi/schemas/text';
import { defineEndpoint } from './define';
import { endpointDocument } from './openapi';
import { country, hexId, hexIdList, integer, oneOf, requestQuery, text } from './query';

const document = JSON.parse(
  readFileSync(join(__dirname, '../../test/fixtures/document-before-definitions.json'), 'utf8'),
) as { paths: Record<string, Record<string, { parameters: unknown[] }>> };

const search = defineEndpoint({
  method: 'get',
  path: '/organization/search',
  operationId: 'x',
  summary: 'x',
  tags: [],
  security: [],
  query: z.object({
    name: text({
      maxLength: 1000,
      schema: trimmedName(200),
      description:
        'All or part of the name; case, accents and scripts do not matter (1 to 200 characters once trimmed, ' +
        'no control characters). A text without a letter or digit matches nothing.',
    }),
    country: country({
      schema: { type: 'string', pattern: COUNTRY_OR_EMPTY_PATTERN },
      description:
        'Only organizations of this country (ISO 3166-1 alpha-2, any case); empty (`country=`, as forms send ' +
        'it) means any country.',
    }).optional(),
    limit: integer({
      description: 'At most this many results (default 25).',
      min: 1,
      max: 100,
      fallback: 25,
    }).optional(),
  }),
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

/** The message requestQuery answers, or the values it read. */
function read(definition: Parameters<typeof requestQuery>[0], query: Record<string, unknown>) {
  const res = { locals: {} } as Response;
  let problem: string | undefined;
  requestQuery(definition)({ query } as unknown as Request, res, (error?: unknown) => {
    problem = (error as Error | undefined)?.message;
  });
  return problem ?? res.locals.query;
}

describe('query parameters of definitions', () => {
  it('state the parameters as the hand-written document did', () => {
    const paths = endpointDocument([search, fields], 'https://eligo.test').paths;
    expect(paths['/organization/search']!.get).toMatchObject({
      parameters: document.paths['/program/{programId}/organization']!.get!.parameters,
    });
    expect(paths['/report/fields']!.get).toMatchObject({
      parameters: document.paths['/report/fields']!.get!.parameters,
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
    expect(read(search, query)).toEqual(expected);
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
    expect(read(fields, query)).toEqual(expected);
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
    expect(read(strict, query)).toEqual(expected);
  });
});
