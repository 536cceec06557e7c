import { z } from 'zod';
import { openApiDocument } from '../openapi/document';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { plain, schemasBefore } from '../../test/document-before';
import { createDocumentValidator } from '../../test/document-validator';
import { checkBody } from './body-check';
import { defineEndpoint } from './define';
import { endpointDocument } from './openapi';
import {
  CallbackUri,
  NotifierEventTypes,
  programEndpoints,
  SendLinkRequest,
  VerificationLimitRequest,
  WebhookDeleteRequest,
  WebhookRequest,
} from './program';
import { exactlyOneOf, fromStringSchema, uniqueItems as uniqueStrings } from './schemas';

// What the hand-written OpenAPI declared for the program token endpoints (openapi/program.paths.ts) and
// their request schemas (openapi/schemas/program-input.ts), captured from the document before they became
// definitions: the definitions must state exactly the same requests and responses.
/** The program path items as openapi/program.paths.ts declared them by hand, before endpoints/. */
export const pathsBefore = {
  '/program/{programId}/theme': {
    parameters: [
      {
        name: 'programId',
        in: 'path',
        required: true,
        description:
          'A program of the calling account (24 lowercase hex characters; any other value is answered 404)',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f]{24}$',
        },
      },
    ],
    get: {
      tags: ['program'],
      operationId: 'getProgramTheme',
      summary: "The program's theme: its messages over the default ones, and its CSS",
      security: [
        {
          bearerToken: [],
        },
        {
          oauthClientCredentials: [],
        },
      ],
      responses: {
        '200': {
          description: 'The theme',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/Theme',
              },
            },
          },
        },
        '401': {
          $ref: '#/components/responses/Unauthorized',
        },
        '404': {
          $ref: '#/components/responses/ProgramNotFound',
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
  },
  '/program/{programId}/verificationLimit': {
    parameters: [
      {
        name: 'programId',
        in: 'path',
        required: true,
        description:
          'A program of the calling account (24 lowercase hex characters; any other value is answered 404)',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f]{24}$',
        },
      },
    ],
    post: {
      tags: ['program'],
      operationId: 'createVerificationLimit',
      summary: 'Limits how many verifications a person may complete within a number of days',
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
              $ref: '#/components/schemas/VerificationLimitRequest',
            },
          },
        },
      },
      responses: {
        '200': {
          $ref: '#/components/responses/ProgramConfiguration',
        },
        '400': {
          $ref: '#/components/responses/InvalidRequest',
        },
        '401': {
          $ref: '#/components/responses/Unauthorized',
        },
        '404': {
          $ref: '#/components/responses/ProgramNotFound',
        },
        '409': {
          description:
            'The program already has a limit (errorIds [verificationLimitAlreadyExists]); delete it first',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ErrorResponse',
              },
            },
          },
        },
        '413': {
          $ref: '#/components/responses/PayloadTooLarge',
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
    delete: {
      tags: ['program'],
      operationId: 'deleteVerificationLimit',
      summary: "Removes the program's verification limit",
      security: [
        {
          bearerToken: [],
        },
        {
          oauthClientCredentials: [],
        },
      ],
      responses: {
        '200': {
          $ref: '#/components/responses/ProgramConfiguration',
        },
        '401': {
          $ref: '#/components/responses/Unauthorized',
        },
        '404': {
          $ref: '#/components/responses/ProgramNotFound',
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
  },
  '/program/{programId}/webhook': {
    parameters: [
      {
        name: 'programId',
        in: 'path',
        required: true,
        description:
          'A program of the calling account (24 lowercase hex characters; any other value is answered 404)',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f]{24}$',
        },
      },
    ],
    post: {
      tags: ['program'],
      operationId: 'createWebhook',
      summary: 'Sets the webhook called when a verification of the program succeeds',
      description:
        'notifierEventTypes opts in to further notifications (DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, EXPIRATION); an unknown one is refused with 400. The reply carries webhook.signingSecret, the HMAC-SHA256 key of the signature, only this once. A webhook cannot be changed while one exists: delete it, then create the new one.',
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
              $ref: '#/components/schemas/WebhookRequest',
            },
          },
        },
      },
      responses: {
        '200': {
          $ref: '#/components/responses/ProgramConfiguration',
        },
        '400': {
          $ref: '#/components/responses/InvalidRequest',
        },
        '401': {
          $ref: '#/components/responses/Unauthorized',
        },
        '404': {
          $ref: '#/components/responses/ProgramNotFound',
        },
        '409': {
          description: 'The program already has a webhook (errorIds [webhookAlreadyExists]); delete it first',
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ErrorResponse',
              },
            },
          },
        },
        '413': {
          $ref: '#/components/responses/PayloadTooLarge',
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
    delete: {
      tags: ['program'],
      operationId: 'deleteWebhook',
      summary: "Removes the program's webhook",
      security: [
        {
          bearerToken: [],
        },
        {
          oauthClientCredentials: [],
        },
      ],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/WebhookDeleteRequest',
            },
          },
        },
      },
      responses: {
        '200': {
          $ref: '#/components/responses/ProgramConfiguration',
        },
        '400': {
          $ref: '#/components/responses/InvalidRequest',
        },
        '401': {
          $ref: '#/components/responses/Unauthorized',
        },
        '404': {
          $ref: '#/components/responses/ProgramNotFound',
        },
        '413': {
          $ref: '#/components/responses/PayloadTooLarge',
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
  },
  '/program/{programId}/sendLink': {
    parameters: [
      {
        name: 'programId',
        in: 'path',
        required: true,
        description:
          'A program of the calling account (24 lowercase hex characters; any other value is answered 404)',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f]{24}$',
        },
      },
    ],
    post: {
      tags: ['program'],
      operationId: 'sendLink',
      summary: 'Sends the verification link of the program to an email address or a phone number',
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
              $ref: '#/components/schemas/SendLinkRequest',
            },
          },
        },
      },
      responses: {
        '204': {
          description: 'The link will be sent',
        },
        '400': {
          $ref: '#/components/responses/InvalidRequest',
        },
        '401': {
          $ref: '#/components/responses/Unauthorized',
        },
        '404': {
          $ref: '#/components/responses/ProgramNotFound',
        },
        '413': {
          $ref: '#/components/responses/PayloadTooLarge',
        },
        '503': {
          $ref: '#/components/responses/ServiceUnavailable',
        },
      },
    },
  },
};

/** The request schemas as openapi/schemas/program-input.ts declared them by hand. */
const declaredSchemas = schemasBefore([
  'VerificationLimitRequest',
  'WebhookRequest',
  'WebhookDeleteRequest',
  'SendLinkRequest',
  'CallbackUri',
  'NotifierEventTypes',
]);

describe('the program endpoint definitions', () => {
  it('generate the path items and schemas the hand-written document declared', () => {
    const { paths, schemas } = endpointDocument(programEndpoints, 'https://eligo.test');
    expect(plain(paths)).toEqual(pathsBefore);
    expect(plain(schemas)).toEqual(declaredSchemas);
  });

  it('are what the served document states, components included', () => {
    const document = openApiDocument('https://example.test') as {
      paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [path, item] of Object.entries(pathsBefore)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'parameters') continue;
        const { operationId, requestBody } = operation as { operationId: string; requestBody?: unknown };
        expect(document.paths[path]![method]!.operationId).toBe(operationId);
        expect(document.paths[path]![method]!.requestBody).toEqual(requestBody);
      }
    }
    for (const [name, schema] of Object.entries(declaredSchemas))
      expect(plain(document.components.schemas[name])).toEqual(schema);
  });
});

describe('the body checks of the program endpoints', () => {
  // Ajv as the request validator runs it, on the schemas as they were written by hand.
  const hook = 'https://hooks.example.com/eligo';
  const emoji = (n: number) => '\u{1F600}'.repeat(n);

  it.each<[string, unknown]>([
    ['VerificationLimitRequest', { quantity: 1, days: 1 }],
    ['VerificationLimitRequest', { quantity: 1000, days: 3650 }],
    ['VerificationLimitRequest', { quantity: 0, days: 30 }],
    ['VerificationLimitRequest', { quantity: 1001, days: 30 }],
    ['VerificationLimitRequest', { quantity: 2, days: 3651 }],
    ['VerificationLimitRequest', { quantity: 1.5, days: 1 }],
    ['VerificationLimitRequest', { quantity: '1', days: 1 }],
    ['VerificationLimitRequest', { quantity: null, days: 1 }],
    ['VerificationLimitRequest', { quantity: 1 }],
    ['VerificationLimitRequest', { days: 1 }],
    ['VerificationLimitRequest', {}],
    ['VerificationLimitRequest', { quantity: 'x' }],
    ['VerificationLimitRequest', { quantity: 2, days: 30, perIp: true }],
    ['VerificationLimitRequest', { perIp: true }],
    ['VerificationLimitRequest', { perIp: true, quantity: 'x', days: 1 }],
    ['VerificationLimitRequest', { quantity: 'x', days: 'y' }],
    ['VerificationLimitRequest', [1, 2]],
    ['VerificationLimitRequest', null],
    ['VerificationLimitRequest', 'text'],
    ['WebhookRequest', { callbackUri: hook }],
    ['WebhookRequest', { callbackUri: 'http://[::1]:8080/a?b=c', notifierEventTypes: [] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['EXPIRATION', 'DOCUMENT_REJECTED'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['SUCCESS'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['expiration'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: 'EXPIRATION' }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['EXPIRATION', 'EXPIRATION'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['EXPIRATION', 'X', 'EXPIRATION'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['X', 'X'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: [1, 1] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: [1] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: [null] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: ['A', 'B', 'C', 'D'] }],
    ['WebhookRequest', { callbackUri: hook, notifierEventTypes: [1, 2, 3, 4] }],
    ['WebhookRequest', { callbackUri: `${hook}#top` }],
    ['WebhookRequest', { callbackUri: 'ftp://example.com' }],
    ['WebhookRequest', { callbackUri: `https://x.example.com/${'a'.repeat(2048)}` }],
    ['WebhookRequest', { callbackUri: `https://x.example.com/${emoji(1020)}` }],
    ['WebhookRequest', { callbackUri: emoji(2049) }],
    ['WebhookRequest', { callbackUri: 42 }],
    ['WebhookRequest', { notifierEventTypes: [] }],
    ['WebhookRequest', { callbackUri: 42, notifierEventTypes: ['X'] }],
    ['WebhookRequest', { callbackUri: hook, secret: 'x' }],
    ['WebhookRequest', { secret: 'x' }],
    ['WebhookRequest', []],
    ['WebhookDeleteRequest', {}],
    ['WebhookDeleteRequest', { callbackUri: hook }],
    ['WebhookDeleteRequest', { callbackUri: '' }],
    ['WebhookDeleteRequest', { callbackUri: 'x'.repeat(2048) }],
    ['WebhookDeleteRequest', { callbackUri: 'x'.repeat(2049) }],
    ['WebhookDeleteRequest', { callbackUri: emoji(2048) }],
    ['WebhookDeleteRequest', { callbackUri: emoji(2049) }],
    ['WebhookDeleteRequest', { callbackUri: 'a\u0000' }],
    ['WebhookDeleteRequest', { callbackUri: `${'\u0000'.repeat(2049)}` }],
    ['WebhookDeleteRequest', { callbackUri: null }],
    ['WebhookDeleteRequest', { url: hook }],
    ['WebhookDeleteRequest', 'x'],
    ['SendLinkRequest', { email: 'someone@example.com' }],
    ['SendLinkRequest', { phoneNumber: '+14155550100', trackingId: 'crm-42' }],
    ['SendLinkRequest', { email: ' a@example.com ', trackingId: '', externalUserId: 'crm-user-7' }],
    ['SendLinkRequest', { email: 'a', trackingId: emoji(100), externalUserId: emoji(256) }],
    ['SendLinkRequest', { email: 'a', trackingId: emoji(101) }],
    ['SendLinkRequest', { email: 'a', externalUserId: emoji(257) }],
    ['SendLinkRequest', { email: 'a', trackingId: 'x'.repeat(101) }],
    ['SendLinkRequest', { email: 'a', trackingId: 'a\u0000b' }],
    ['SendLinkRequest', { email: 'a', trackingId: 'a\nb' }],
    ['SendLinkRequest', { email: 'a', externalUserId: '' }],
    ['SendLinkRequest', { email: 'a', externalUserId: 'a\u0007' }],
    ['SendLinkRequest', { email: 'a', externalUserId: 'x'.repeat(257) }],
    ['SendLinkRequest', { email: 'a', userId: 'x' }],
    ['SendLinkRequest', { userId: 'x' }],
    ['SendLinkRequest', { trackingId: 'x' }],
    ['SendLinkRequest', {}],
    ['SendLinkRequest', { email: 'a@example.com', phoneNumber: '+14155550100' }],
    ['SendLinkRequest', { email: 5 }],
    ['SendLinkRequest', { email: null }],
    ['SendLinkRequest', { email: '   ' }],
    ['SendLinkRequest', { email: 'x'.repeat(321) }],
    ['SendLinkRequest', { phoneNumber: 'x'.repeat(33) }],
    ['SendLinkRequest', { email: 'a', trackingId: 5, externalUserId: 5 }],
    ['SendLinkRequest', [1]],
    ['SendLinkRequest', null],
    ['SendLinkRequest', 'text'],
  ])('%s: refuses or accepts %j as the OpenAPI validator did, in the same words', (name, body) => {
    const schemas = {
      VerificationLimitRequest,
      WebhookRequest,
      WebhookDeleteRequest,
      SendLinkRequest,
    } as Record<string, z.ZodType>;
    expect(zodSays(schemas[name]!, body)).toEqual(ajvSaidBefore(name, body));
  });

  it("are compiled by the request validator as the document's schemas", () => {
    const validator = createDocumentValidator();
    expect(validator.check('VerificationLimitRequest', { quantity: 0, days: 1 })).toBe(
      'body.quantity must be >= 1',
    );
    expect(validator.check('CallbackUri', 'ftp://x')).toMatch(/^body must be an absolute http or https URL/);
    expect(validator.check('NotifierEventTypes', ['EXPIRATION', 'EXPIRATION'])).toBe(
      'body must NOT have duplicate items (items ## 1 and 0 are identical)',
    );
  });

  it('refuses a quantity past the safe integers by its own bound, as Ajv did (not the safe-integer one)', () => {
    const body = { quantity: 1e22, days: 1 };
    expect(checkBody(VerificationLimitRequest, body)).toEqual({
      ok: false,
      problem: 'body.quantity must be <= 1000',
    });
    expect(createDocumentValidator().check('VerificationLimitRequest', body)).toBe(
      'body.quantity must be <= 1000',
    );
  });

  it('type the checked bodies as the schemas infer them', () => {
    const checked = checkBody(WebhookRequest, { callbackUri: 'https://a.example', notifierEventTypes: [] });
    const body: { callbackUri: string; notifierEventTypes?: ('EXPIRATION' | string)[] } | undefined =
      checked.ok ? checked.value : undefined;
    expect(body).toEqual({ callbackUri: 'https://a.example', notifierEventTypes: [] });
    const link = checkBody(SendLinkRequest, { phoneNumber: '+1' });
    expect(link.ok && link.value.phoneNumber).toBe('+1');
    expect(checkBody(CallbackUri, 'https://a.example').ok).toBe(true);
    expect(checkBody(NotifierEventTypes, ['EXPIRATION']).ok).toBe(true);
  });
});

describe('the schema helpers of endpoints/schemas.ts', () => {
  const json = (schema: z.ZodType) =>
    plain(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' })) as Record<string, unknown>;

  it('count code points for the length bounds of a string, and publish them as written', () => {
    const text = fromStringSchema({ type: 'string', pattern: '^[^\\u0000]*$', minLength: 1, maxLength: 2 });
    expect(json(text)).toMatchObject({ type: 'string', minLength: 1, maxLength: 2 });
    expect(checkBody(text, '\u{1F600}\u{1F600}').ok).toBe(true);
    expect(checkBody(text, 'abc')).toEqual({
      ok: false,
      problem: 'body must NOT have more than 2 characters',
    });
    expect(checkBody(text, '')).toEqual({ ok: false, problem: 'body must NOT have fewer than 1 characters' });
  });

  it('state uniqueItems and oneOf in the document', () => {
    expect(json(uniqueStrings(z.array(z.string())))).toMatchObject({ uniqueItems: true });
    const one = exactlyOneOf(z.object({ a: z.string().optional(), b: z.string().optional() }), ['a', 'b']);
    expect(json(one)).toMatchObject({ oneOf: [{ required: ['a'] }, { required: ['b'] }] });
    expect(checkBody(one, { a: 'x' }).ok).toBe(true);
    expect(checkBody(one, { a: 'x', b: 'y' })).toEqual({
      ok: false,
      problem: 'body must have exactly one of a, b',
    });
  });
});

describe('defineEndpoint with an optional body', () => {
  const base = {
    method: 'delete',
    path: '/a',
    operationId: 'x',
    summary: 'x',
    tags: ['x'],
    security: [],
    responses: { '200': { description: 'done' } },
  } as const;

  it('states requestBody.required false, and refuses bodyOptional without a body', () => {
    const definition = defineEndpoint({ ...base, body: z.object({}), bodyOptional: true });
    const { paths } = endpointDocument([definition], 'https://eligo.test');
    expect((paths['/a']!.delete as { requestBody: { required: boolean } }).requestBody.required).toBe(false);
    expect(() => defineEndpoint({ ...base, bodyOptional: true })).toThrow('x: bodyOptional without a body');
  });
});
