import { errorResponse } from './refs';

type Json = Record<string, unknown>;

const tooMany =
  'Too many requests (errorIds [tooManyRequests]): tokenless creations per client address per minute ' +
  '(ELIGO_GATEWAY_PUBLIC_CREATE_PER_MINUTE), or send-link messages per program and recipient per hour ' +
  '(ELIGO_GATEWAY_SEND_LINK_PER_HOUR); retry after the Retry-After seconds';

/** The operations the gateway's rate limits guard (http/rate-limits.ts). */
const limited = [
  '/verification',
  '/verification/marketplace',
  '/organization/addSchool',
  '/program/{programId}/sendLink',
];

/** Adds the rate limits' 429 to the POSTs they guard; an operation's own 429 (ER too) gains the reason. */
export function withRateLimits(shared: Record<string, Json>): Record<string, Json> {
  const paths = structuredClone(shared);
  for (const path of limited) {
    const post = paths[path]?.post as Json | undefined;
    if (!post) throw new Error(`rate-limited operation POST ${path} is not in the document`);
    const responses = post.responses as Record<string, Json>;
    const own = responses['429'];
    responses['429'] = own
      ? { ...own, description: `${String(own.description)}; or: ${tooMany}` }
      : errorResponse(tooMany, 'ErrorResponse');
  }
  return paths;
}
