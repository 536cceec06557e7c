import { z } from 'zod';
import { openApiDocument } from '../openapi/document';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { documentBefore, expectPathsAsBefore, plain, schemasBefore } from '../../test/document-before';
import { createDocumentValidator } from '../../test/document-validator';
import { checkBody } from './body-check';
import {
  ConversionRequest,
  conversionEndpoints,
  recordConversionByTrackingId,
  recordConversionByVerification,
} from './conversion';
import { defineEndpoint, expressPath } from './define';
import { endpointDocument } from './openapi';

// What the hand-written OpenAPI declared for the two conversion endpoints (openapi/conversion.paths.ts) and
// their schemas (openapi/schemas/report.ts), captured from the document before they became definitions: the
// definitions must state exactly the same request and responses.
const pathNames = [
  '/conversion/verification/{verificationId}',
  '/conversion/account/{accountId}/trackingId/{trackingId}',
];
const declaredSchemas = schemasBefore(['ConversionRequest', 'ConversionResponse']);

describe('the conversion endpoint definitions', () => {
  it('generate the path items the hand-written document declared', () => {
    const { paths, schemas } = endpointDocument(conversionEndpoints, 'https://eligo.test');
    expect(Object.keys(paths)).toEqual(pathNames);
    expectPathsAsBefore(paths);
    expect(plain(schemas)).toEqual(declaredSchemas);
  });

  it('are what the served document states, components included', () => {
    const document = openApiDocument('https://example.test') as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    for (const path of pathNames) {
      type Item = { post: { operationId: string; requestBody: unknown } };
      const [now, before] = [document.paths[path] as Item, documentBefore.paths[path] as Item];
      expect(now.post.operationId).toBe(before.post.operationId);
      expect(now.post.requestBody).toEqual(before.post.requestBody);
    }
    expect(plain(document.components.schemas.ConversionRequest)).toEqual(declaredSchemas.ConversionRequest);
    expect(plain(document.components.schemas.ConversionResponse)).toEqual(declaredSchemas.ConversionResponse);
  });

  it('register the Express form of their paths', () => {
    expect(expressPath(recordConversionByVerification)).toBe('/conversion/verification/:verificationId');
    expect(expressPath(recordConversionByTrackingId)).toBe(
      '/conversion/account/:accountId/trackingId/:trackingId',
    );
  });
});

describe('the body check of ConversionRequest', () => {
  // Ajv as the request validator runs it, on the schema as it was written by hand.
  // Bodies past the route's "Invalid amount" rule: the amount is a number in range.
  it.each([
    [{ amount: 1 }],
    [{ amount: 0, currency: 'eur', tags: [' spring ', 'web'] }],
    [{ amount: 99999999999.99, currency: 'USD', tags: [] }],
    [{ amount: 1, tags: Array.from({ length: 20 }, (_, i) => `t${i}`) }],
    [{ amount: 1, tags: ['x'.repeat(64)] }],
    [{ amount: 1, tags: ['\u{1F600}'.repeat(64)] }],
    [{ amount: 1, price: 2 }],
    [{ amount: 1, price: 2, other: 3 }],
    [{ amount: 1, price: 2, currency: 840 }],
    [{ amount: 1, currency: 840, tags: 'x' }],
    [{ amount: 1, currency: 'EURO' }],
    [{ amount: 1, currency: null }],
    [{ amount: 1, currency: '' }],
    [{ amount: 1, tags: null }],
    [{ amount: 1, tags: 'spring' }],
    [{ amount: 1, tags: [1] }],
    [{ amount: 1, tags: ['ok', ''] }],
    [{ amount: 1, tags: ['a\u0000'] }],
    [{ amount: 1, tags: ['   '] }],
    [{ amount: 1, tags: ['x'.repeat(65)] }],
    [{ amount: 1, tags: ['\u{1F600}'.repeat(65)] }],
    [{ amount: 1, tags: Array.from({ length: 21 }, () => '') }],
    [{ amount: 1, 'a/b~c': true }],
    [[1]],
    ['text'],
    [null],
  ])('refuses or accepts %j as the OpenAPI validator did, in the same words', (body) => {
    expect(zodSays(ConversionRequest, body)).toEqual(ajvSaidBefore('ConversionRequest', body));
  });

  it("is compiled by the request validator as the document's ConversionRequest", () => {
    expect(createDocumentValidator().check('ConversionRequest', { amount: 1, currency: 'x' })).toBe(
      'body.currency must be an ISO 4217 currency code',
    );
  });

  it('types the checked body as the schema infers it', () => {
    const checked = checkBody(ConversionRequest, { amount: 1, tags: ['a'] });
    const body: { amount: number; currency?: string; tags?: string[] } | undefined = checked.ok
      ? checked.value
      : undefined;
    expect(body).toEqual({ amount: 1, tags: ['a'] });
  });
});

describe('defineEndpoint', () => {
  const base = {
    method: 'post',
    operationId: 'x',
    summary: 'x',
    tags: ['x'],
    security: [],
    responses: { '204': { description: 'done' } },
  } as const;

  it("refuses path parameters that are not the path's", () => {
    expect(() =>
      defineEndpoint({
        ...base,
        path: '/a/{id}',
        params: z.object({ other: z.string().meta({ description: 'x' }) }),
      }),
    ).toThrow("x: the path's parameters (id) are not those declared (other)");
    expect(() => defineEndpoint({ ...base, path: '/a/{id}' })).toThrow(/not those declared/);
  });

  it('refuses two different schemas under one id, and a method of a path defined twice', () => {
    const one = z.object({ a: z.string() }).meta({ id: 'ClashingName' });
    const two = z.object({ b: z.string() }).meta({ id: 'ClashingName' });
    const define = (path: string, body: z.ZodType) => defineEndpoint({ ...base, path, body });
    expect(() =>
      endpointDocument([define('/a', one), define('/b', one)], 'https://eligo.test'),
    ).not.toThrow();
    expect(() => endpointDocument([define('/a', one), define('/b', two)], 'https://eligo.test')).toThrow(
      'two different schemas are named ClashingName',
    );
    expect(() => endpointDocument([define('/a', one), define('/a', one)], 'https://eligo.test')).toThrow(
      'POST /a is defined twice',
    );
  });
});
