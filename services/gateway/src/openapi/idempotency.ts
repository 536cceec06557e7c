import { IDEMPOTENCY_KEY_PATTERN } from '../idempotency/middleware';
import { errorResponse } from './refs';

type Json = Record<string, unknown>;

const header = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Makes a retry safe (Stripe's convention): the first request with a key runs and its answer is kept 24 h; " +
    'the same key with the same request answers that again (header `Idempotent-Replayed: true`) without ' +
    'running anything twice. Use a new random key (a UUID) per logical request. Keys belong to the ' +
    'credential sent with them. A 5xx answer is not kept: the retry runs again.',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
};
const inUse =
  'A request with the same Idempotency-Key is still running (errorIds [idempotencyKeyInUse]); retry after ' +
  'the Retry-After seconds';
const reused = errorResponse(
  'The Idempotency-Key was used with another request: another method, path or body (errorIds ' +
    '[idempotencyKeyReused]); use a new key',
  'ErrorResponse',
);

/**
 * Every POST of REST v2 (the paths without servers of their own: admin, OAuth and uploads have theirs) takes
 * the Idempotency-Key header and may answer 409 and 422 because of it; an operation's own 409 (ER too) gains
 * the reason in its description.
 */
export function withIdempotencyKey(shared: Record<string, Json>): Record<string, Json> {
  // The path objects are module constants that every call of openApiDocument spreads: change a copy.
  const paths = structuredClone(shared);
  for (const item of Object.values(paths)) {
    const post = item.post as Json | undefined;
    if (item.servers || !post) continue;
    post.parameters = [...((post.parameters as Json[] | undefined) ?? []), header];
    const responses = post.responses as Record<string, Json>;
    const own = responses['409'];
    responses['409'] = own
      ? { ...own, description: `${String(own.description)}; or: ${inUse}` }
      : errorResponse(inUse, 'ErrorResponse');
    responses['422'] = reused;
    responses['400'] = withBadKey(responses['400']);
  }
  return paths;
}

const badKey = 'or a malformed Idempotency-Key header (errorIds [invalidRequest])';

/**
 * A malformed key is the operation's 400 in its usual shape where it has one that carries errorIds (ER, the
 * step error); an operation whose 400 is only the VR (expire) or that had none answers it as ER.
 */
function withBadKey(own: Json | undefined): Json {
  if (!own)
    return errorResponse(`A malformed Idempotency-Key header (errorIds [invalidRequest])`, 'ErrorResponse');
  const description = `${String(own.description)}; ${badKey}`;
  if ('$ref' in own) return own; // a shared response (InvalidRequest): ER already
  const content = own.content as Record<string, { schema: Json }>;
  const schema = content['application/json']!.schema;
  const refs = JSON.stringify(schema);
  if (refs.includes('ErrorResponse') || refs.includes('VerificationStepError'))
    return { ...own, description };
  return {
    ...own,
    description,
    content: {
      'application/json': { schema: { anyOf: [schema, { $ref: '#/components/schemas/ErrorResponse' }] } },
    },
  };
}
