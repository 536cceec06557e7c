import type { ErrorId } from '@eligo/programs';
import { charLength } from './text';

/**
 * Limits of a verification's metadata (a flat string map the integrator attaches). Metadata is stored with
 * every verification and copied into reports and details, so it is bounded like any other stored field.
 * Lengths count characters (code points), as the integrator does.
 */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 64;
export const MAX_METADATA_VALUE_LENGTH = 1024;

/** The order errorIds are reported in, whatever order the entries came in. */
const METADATA_ERROR_ORDER: readonly ErrorId[] = [
  'maxMetadataValuesExceeded',
  'maxMetadataLengthExceeded',
  'invalidRequest',
];

/**
 * The errorIds of a metadata map, each at most once, empty when it is within the limits. An empty key has
 * no errorId of its own and is an invalidRequest. Non-string values never get here: the gateway's schema
 * refuses them.
 */
export function metadataProblems(metadata: Record<string, string>): ErrorId[] {
  const entries = Object.entries(metadata);
  const problems = new Set<ErrorId>();
  if (entries.length > MAX_METADATA_KEYS) problems.add('maxMetadataValuesExceeded');
  for (const [key, value] of entries) {
    if (key.length === 0) problems.add('invalidRequest');
    else if (charLength(key) > MAX_METADATA_KEY_LENGTH) problems.add('maxMetadataLengthExceeded');
    if (charLength(value) > MAX_METADATA_VALUE_LENGTH) problems.add('maxMetadataLengthExceeded');
  }
  return METADATA_ERROR_ORDER.filter((id) => problems.has(id));
}

/** The keys of a metadata map, sorted: the same map gives the same list whatever order its entries came in. */
export function metadataKeys(metadata: Record<string, string>): string[] {
  return Object.keys(metadata).sort();
}
