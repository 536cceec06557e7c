import { jsonResponse, ref } from './refs';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const NOT_DECODABLE = 'a path that is not valid percent-encoded UTF-8 (errorIds [invalidRequest])';
const RESERVED_WORD =
  'a word of another endpoint’s path (program, reverify, marketplace) in place of the verificationId, where ' +
  'no endpoint has the path: SEM, as for any unknown path';

/**
 * What the gateway answers on every operation it can reach, whatever the route, before or after it runs:
 * - a path parameter that does not percent-decode (`/verification/%E0%A4%A`) is 400 invalidRequest
 *   (http/request-path.ts, and the error mapper's path decoding outside REST v2): the step error on REST v2's
 *   step endpoints (whose 400s are VRs), ER everywhere else;
 * - a reserved word where REST v2 takes a verificationId (`POST /verification/marketplace/expire`) is passed on
 *   to the endpoints that own such paths (routes/verification-params.ts), and names nothing when none does:
 *   404 SEM "No endpoint ...";
 * - a request line and headers over Node's 16 KiB limit (a URL naming hundreds of ids) is 431 SEM, from the HTTP
 *   server itself (runtime's http/client-errors.ts);
 * - a fault of ours (a service failure, a reply the gateway cannot read) is 500 with the generic ER
 *   (errors.ts), unless the operation declares a 500 of its own.
 */
export function withGatewayAnswers(shared: Record<string, Json>): Record<string, Json> {
  // The path objects are module constants that every call of openApiDocument spreads, and several operations
  // may share one (the step endpoints share their responses): each path item, operation and responses map
  // is copied before it changes, and a response is replaced, never changed.
  const paths: Record<string, Json> = {};
  for (const [path, own] of Object.entries(shared)) {
    const item: Json = (paths[path] = { ...own });
    const v2 = !item.servers;
    const step = v2 && /\/verification\/.*\/step\//.test(path);
    const reserved = v2 && path.startsWith('/verification/{verificationId}');
    for (const method of METHODS) {
      const operation = item[method] as { responses?: Record<string, Json> } | undefined;
      if (!operation?.responses) continue;
      const responses = { ...operation.responses };
      item[method] = { ...operation, responses };
      if (path.includes('{'))
        responses['400'] = alsoAnswering(
          responses['400'],
          NOT_DECODABLE,
          step ? 'VerificationStepError' : 'ErrorResponse',
        );
      if (reserved) responses['404'] = alsoAnswering(responses['404'], RESERVED_WORD, 'SystemErrorMessage');
      responses['431'] ??= ref('responses', 'RequestHeadTooLarge');
      responses['500'] ??= ref('responses', 'InternalServerError');
    }
  }
  return paths;
}

/**
 * An operation's response for a status, gaining a condition answered with the body `shape`: a new response
 * where it had none, the same one (its description completed) where its schema names the shape, else its
 * schema or the shape. A shared response ($ref) is ER (components.ts), left as it is where ER is the shape.
 */
function alsoAnswering(own: Json | undefined, condition: string, shape: string): Json {
  if (!own) return jsonResponse(condition.charAt(0).toUpperCase() + condition.slice(1), shape);
  if ('$ref' in own) {
    if (shape === 'ErrorResponse') return own;
    throw new Error(`a shared response (${String(own.$ref)}) cannot also answer ${shape}: declare it inline`);
  }
  const description = `${String(own.description)}; or ${condition}`;
  const schema = (own.content as Record<string, { schema: Json }>)['application/json']!.schema;
  if (JSON.stringify(schema).includes(`/${shape}"`)) return { ...own, description };
  return {
    ...own,
    description,
    content: { 'application/json': { schema: { anyOf: [schema, ref('schemas', shape)] } } },
  };
}
