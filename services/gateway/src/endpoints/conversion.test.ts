import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { openApiDocument } from '../openapi/document';
import { CURRENCY_PATTERN } from '../openapi/schemas/conversion-limits';
import { describeValidationError } from '../../test/document-validator';
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

// What the hand-written OpenAPI declared for the two conversion endpoints, captured from the document before
// they became definitions (the currency pattern is the ICU list, hence the constant): the definitions must
// state exactly the same request and responses.
/** The conversion path items as openapi/conversion.paths.ts declared them by hand, before endpoints/. */
export const pathsBefore = {
  '/conversion/verification/{verificationId}': {
    parameters: [
      {
        name: 'verificationId',
        in: 'path',
        required: true,
        description: 'The verification (24 lowercase hex characters; any other value is answered 404)',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f]{24}$',
        },
      },
    ],
    post: {
      tags: ['conversion'],
      operationId: 'recordConversionByVerification',
      summary: 'Records a conversion (e.g. a purchase) against a verification',
      description:
        "A token is optional: without one, the verification id is the capability; with one, it must be a valid account token, and the conversion is checked against its account (another account's verification is 404).",
      security: [
        {},
        {
          bearerToken: [],
        },
        {
          oauthClientCredentials: [],
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/ConversionRequest',
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The conversion was recorded',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ConversionResponse',
              },
            },
          },
        },
        '400': {
          description:
            'The body is refused: systemErrorMessage "Invalid amount" for an amount that is missing, not a number, negative or not finite; otherwise it names the field (also malformed JSON, an unknown currency)',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '401': {
          description: 'An Authorization header was sent, and its token is not a valid account token',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '404': {
          description: 'No such verification (also for a malformed verificationId)',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '413': {
          description: 'Request body larger than the configured limit',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
  },
  '/conversion/account/{accountId}/trackingId/{trackingId}': {
    parameters: [
      {
        name: 'accountId',
        in: 'path',
        required: true,
        description:
          'The account (shown with the access tokens) (24 lowercase hex characters; any other value is answered 404)',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f]{24}$',
        },
      },
      {
        name: 'trackingId',
        in: 'path',
        required: true,
        description:
          'The tracking id a verification of the account was started with (1 to 256 characters, no control characters).',
        schema: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
          pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$',
        },
      },
    ],
    post: {
      tags: ['conversion'],
      operationId: 'recordConversionByTrackingId',
      summary: 'Records a conversion against the most recent verification with this tracking id',
      description:
        "The account's own token is required (static or OAuth): the tracking id is yours (often an order number), so the path alone must not let anyone record conversions or learn which tracking ids exist.",
      security: [
        {
          bearerToken: [],
        },
        {
          oauthClientCredentials: [],
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/ConversionRequest',
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The conversion was recorded',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ConversionResponse',
              },
            },
          },
        },
        '400': {
          description:
            'The body is refused: systemErrorMessage "Invalid amount" for an amount that is missing, not a number, negative or not finite; otherwise it names the field (also malformed JSON, an unknown currency)',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '401': {
          description:
            'No token, a token that is not a valid account token, or a token of another account than accountId: the same answer whether or not that account exists (`WWW-Authenticate: Bearer`)',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '404': {
          description:
            'No verification of the account with this tracking id (also for a tracking id longer than 256 characters or with control characters)',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '413': {
          description: 'Request body larger than the configured limit',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/SystemErrorMessage',
              },
            },
          },
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
  },
};

/** ConversionRequest and ConversionResponse as openapi/schemas/report.ts declared them by hand. */
export const schemasBefore = {
  ConversionRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['amount'],
    properties: {
      amount: {
        type: 'number',
        minimum: 0,
        exclusiveMaximum: 100000000000,
        description:
          'The value of the conversion (e.g. a purchase total), kept to 4 decimal places. Missing, not a number, negative or 100000000000 and more: 400 "Invalid amount".',
      },
      currency: {
        type: 'string',
        pattern: CURRENCY_PATTERN,
        description: 'An ISO 4217 code, in any case (default USD); another is 400 "Invalid currency".',
        examples: ['USD'],
      },
      tags: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'string',
          pattern:
            '^[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*[^\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]([^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]{0,62}[^\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029])?[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*$',
        },
        description:
          "Labels of your own, kept with the conversion: at most 20, each 1 to 64 characters once trimmed, without control characters; repeated ones are kept once. A verification keeps at most 100 distinct tags over all its conversions (the report's conversionTags): once it has that many, tags it does not have yet are dropped, and the conversion itself is still recorded and counted (never refused for its tags).",
      },
    },
  },
  ConversionResponse: {
    type: 'object',
    required: ['id'],
    properties: {
      id: {
        type: 'string',
        description: 'The id of the recorded conversion.',
      },
    },
  },
};

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('the conversion endpoint definitions', () => {
  it('generate the path items the hand-written document declared', () => {
    const { paths, schemas } = endpointDocument(conversionEndpoints, 'https://eligo.test');
    expect(plain(paths)).toEqual(pathsBefore);
    expect(plain(schemas)).toEqual(schemasBefore);
  });

  it('are what the served document states, components included', () => {
    const document = openApiDocument('https://example.test') as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [path, item] of Object.entries(pathsBefore)) {
      const served = document.paths[path] as { post: { operationId: string; requestBody: unknown } };
      expect(served.post.operationId).toBe(item.post.operationId);
      expect(served.post.requestBody).toEqual(item.post.requestBody);
    }
    expect(plain(document.components.schemas.ConversionRequest)).toEqual(schemasBefore.ConversionRequest);
    expect(plain(document.components.schemas.ConversionResponse)).toEqual(schemasBefore.ConversionResponse);
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
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  const validate = ajv.compile(schemasBefore.ConversionRequest);
  const ajvSays = (value: unknown) =>
    validate(value) ? undefined : describeValidationError(validate.errors ?? []);
  const zodSays = (value: unknown) => {
    const checked = checkBody(ConversionRequest, value);
    return checked.ok ? undefined : checked.problem;
  };

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
    expect(zodSays(body)).toEqual(ajvSays(body));
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
