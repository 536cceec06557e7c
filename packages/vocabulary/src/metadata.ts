import type { ErrorId } from './error-ids';
import { CONTROL_CHARACTERS, charLength } from './text';

/**
 * Limits of a verification's metadata (a flat string map the integrator attaches). Metadata is stored with
 * every verification and copied into reports and details, so it is bounded like any other stored field.
 * Lengths count characters (code points), as the integrator does.
 */
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 64;
export const MAX_METADATA_VALUE_LENGTH = 1024;

/**
 * Keys no map may have: `__proto__` names the prototype of a JavaScript object, so a plain-object map (the
 * proto decoder's, a JSON reader's) silently drops it or turns it into something else. Refused rather than
 * lost.
 */
export const RESERVED_METADATA_KEYS: readonly string[] = ['__proto__'];

/** The order errorIds are reported in, whatever order the entries came in. */
const METADATA_ERROR_ORDER: readonly ErrorId[] = [
  'maxMetadataValuesExceeded',
  'maxMetadataLengthExceeded',
  'invalidRequest',
];

/**
 * The errorIds of a metadata map, each at most once, empty when it is within the limits. The integrator's
 * mistakes that have no errorId of their own are invalidRequest (metadataRequestProblem says which): an
 * empty or reserved key, a control character in a key or a value (they break the CSV and log lines the
 * metadata ends up in). Non-string values never get here: the gateway refuses them.
 */
export function metadataProblems(metadata: Record<string, string>): ErrorId[] {
  const entries = Object.entries(metadata);
  const problems = new Set<ErrorId>();
  if (entries.length > MAX_METADATA_KEYS) problems.add('maxMetadataValuesExceeded');
  for (const [key, value] of entries) {
    if (charLength(key) > MAX_METADATA_KEY_LENGTH || charLength(value) > MAX_METADATA_VALUE_LENGTH)
      problems.add('maxMetadataLengthExceeded');
  }
  if (metadataRequestProblem(metadata) !== undefined) problems.add('invalidRequest');
  return METADATA_ERROR_ORDER.filter((id) => problems.has(id));
}

/**
 * What makes a metadata map an invalidRequest, naming the first key at fault; undefined when nothing does.
 * The messages are the systemErrorMessage of the refusal.
 */
export function metadataRequestProblem(metadata: Record<string, string>): string | undefined {
  for (const [key, value] of Object.entries(metadata)) {
    const name = JSON.stringify(key);
    if (key.length === 0) return 'metadata: a key must not be empty';
    if (RESERVED_METADATA_KEYS.includes(key)) return `metadata: the key ${name} is reserved`;
    if (CONTROL_CHARACTERS.test(key)) return `metadata: the key ${name} must not contain control characters`;
    if (CONTROL_CHARACTERS.test(value)) return `metadata[${name}] must not contain control characters`;
  }
  return undefined;
}

/** The keys of a metadata map, sorted: the same map gives the same list whatever order its entries came in. */
export function metadataKeys(metadata: Record<string, string>): string[] {
  return Object.keys(metadata).sort();
}
