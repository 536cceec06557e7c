import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { COUNTRY_OR_EMPTY_PATTERN } from '../openapi/schemas/countries';
import { trimmedName } from '../openapi/schemas/text';
import * as before from '../validation/query-params';
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

/** The message the hand-written readers threw, or undefined. */
function old(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
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

  it.each([
    [{}],
    [{ name: '' }],
    [{ name: ['a', 'b'] }],
    [{ name: 'x'.repeat(1001) }],
    [{ name: 'a\u0000b' }],
    [{ name: ' ok\t' }],
    [{ name: 'ok', country: 'zz' }],
    [{ name: 'ok', country: 'us' }],
    [{ name: 'ok', country: '' }],
    [{ name: 'ok', limit: '0' }],
    [{ name: 'ok', limit: '' }],
    [{ name: 'ok', limit: '1e1' }],
    [{ name: 'ok', limit: '100' }],
  ])('reads %j as the hand-written readers did', (query) => {
    const q = query as Request['query'];
    const expected =
      old(() => before.requiredText(q, 'name', 1000)) ??
      old(() => before.optionalCountry(q, 'country')) ??
      old(() => before.optionalInt(q, 'limit', 1, 100));
    const got = read(search, query);
    if (expected !== undefined) expect(got).toBe(expected);
    else
      expect(got).toEqual(
        Object.fromEntries(
          Object.entries({
            name: before.requiredText(q, 'name', 1000),
            country: before.optionalCountry(q, 'country'),
            limit: before.optionalInt(q, 'limit', 1, 100),
          }).filter(([, v]) => v !== undefined),
        ),
      );
  });

  it.each([
    [{}],
    [{ programIds: '' }],
    [{ programIds: ['a', 'b'] }],
    [{ programIds: `${'a'.repeat(24)},` }],
    [{ programIds: Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0')) }],
    [{ programIds: [{}] }],
  ])('reads the id list %j as before', (query) => {
    const q = query as Request['query'];
    const expected = old(() => before.hexIdList(q, 'programIds', 100));
    const got = read(fields, query);
    if (expected !== undefined) expect(got).toBe(expected);
    else {
      const ids = before.hexIdList(q, 'programIds', 100);
      expect(got).toEqual(ids.length ? { programIds: ids } : {});
    }
  });

  it.each([
    [{ stauts: 'PENDING' }],
    [{ status: '' }],
    [{ status: 'NOPE' }],
    [{ id: 'ABC' }],
    [{ consumer: 'x'.repeat(65) }],
    [{ status: 'DONE', id: 'a'.repeat(24) }],
  ])('reads the strict query %j as before', (query) => {
    const q = query as Request['query'];
    const expected =
      old(() => before.strictQuery(q, ['status', 'id', 'consumer'])) ??
      old(() => before.optionalEnum(q, 'status', ['PENDING', 'DONE'])) ??
      old(() => before.optionalHexId(q, 'id')) ??
      old(() => before.optionalText(q, 'consumer', 64));
    const got = read(strict, query);
    if (expected !== undefined) expect(got).toBe(expected);
    else expect(got).toEqual(query);
  });
});
