import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from './document';

type Json = Record<string, unknown>;
const document = openApiDocument('https://eligo.example.com') as {
  paths: Record<string, Json>;
  components: Json;
};
const DOC = 'https://eligo.invalid/openapi.json';
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats(ajv);
ajv.addSchema({ $id: DOC, components: document.components });

/** Validates `body` against the JSON schema an operation declares for a status (refs resolved in the document). */
function validates(path: string, method: string, status: string, body: unknown): boolean {
  const operation = document.paths[path]![method] as { responses: Record<string, Json> };
  let response = operation.responses[status]!;
  if (typeof response.$ref === 'string')
    response = (document.components.responses as Record<string, Json>)[response.$ref.split('/').pop()!]!;
  const schema = (response.content as Record<string, { schema: Json }>)['application/json']!.schema;
  const rewrite = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(rewrite)
      : node && typeof node === 'object'
        ? Object.fromEntries(
            Object.entries(node).map(([k, v]) => [k, k === '$ref' ? `${DOC}${String(v)}` : rewrite(v)]),
          )
        : node;
  return ajv.validate(rewrite(schema) as object, body);
}

const stepPaths = Object.keys(document.paths).filter((p) => /\/step\//.test(p));

describe('the step endpoints’ 400', () => {
  // What the server answers when the verification is not on the step (a VR with currentStep error).
  const invalidStep = {
    verificationId: '24b94e6467d0a25dd56a1fa4',
    currentStep: 'error',
    errorIds: ['invalidStep'],
    segment: 'student',
    subSegment: null,
    locale: 'en-US',
    systemErrorMessage: 'The verification is on step error',
    instantMatchAttempts: 0,
  };
  // What the gateway answers for a body it refuses before any call.
  const refused = {
    currentStep: 'error',
    errorIds: ['invalidRequest'],
    systemErrorMessage: 'body.x is required',
  };

  it.each(
    stepPaths.flatMap((p) => ['post', 'delete'].filter((m) => document.paths[p]![m]).map((m) => [m, p])),
  )('%s %s describes both the VR and the step error body (anyOf: a VR in error is both)', (method, path) => {
    const responses = (document.paths[path]![method] as { responses: Json }).responses;
    if (!responses['400']) return;
    expect(validates(path, method, '400', invalidStep)).toBe(true);
    expect(validates(path, method, '400', refused)).toBe(true);
  });
});
