import { z } from 'zod';
import { SEGMENTS, segmentNames, type Segment as SegmentName } from '@eligo/vocabulary';
import { isJsonObject } from './schemas';
import { programAccountId, ProgramName, programSettings, Segment } from './admin-programs-input';
import { AGE_BOUNDED_SEGMENTS } from './program-input-rules';

/**
 * The body of a new program, ProgramCreateRequest: the settings of ProgramPatchRequest with accountId, name
 * and segment required, and the rules that tie one setting to another and that a schema can say (on PATCH
 * they involve the stored program, so the service checks them): the sub-segments of its segment, minAge and
 * maxAge for age and senior programs only, and rewardCode with a staticCode offer only (the default offer is
 * noCode). The document states each rule as an if/then/else of an allOf; the check below is the same rule.
 */
type Json = Record<string, unknown>;
type Body = Record<string, unknown>;

/** A refusal of a rule, at a property of the body; its wording ends with why, as the document says it. */
interface Refusal {
  property: string | [string, number];
  message: string;
}

/** One rule: its statement in the document, and the first refusal it gives a body (an object). */
interface CreateRule {
  json: Json;
  refusal(body: Body): Refusal | undefined;
}

const segmentIs = (value: unknown): Json => ({ required: ['segment'], properties: { segment: value } });
const because = (message: string, why: string) => `${message} (${why})`;

/**
 * A segment's sub-segments: those of the segment, or none. Ajv adds the description of the schema that
 * refused to its message, which the type of the list has only for a segment without any.
 */
function subSegmentsRule(segment: SegmentName): CreateRule {
  const own: readonly string[] = SEGMENTS[segment];
  const why = own.length ? `the sub-segments of ${segment}` : `${segment} programs take no sub-segments`;
  const rule = own.length
    ? { type: ['array', 'null'], items: { enum: [...own], description: why } }
    : { type: ['array', 'null'], maxItems: 0, description: why };
  return {
    json: { if: segmentIs({ const: segment }), then: { properties: { subSegments: rule } } },
    refusal(body) {
      const value = body.subSegments;
      if (body.segment !== segment || value === undefined || value === null) return undefined;
      if (!Array.isArray(value)) {
        const message = 'must be array or null';
        return { property: 'subSegments', message: own.length ? message : because(message, why) };
      }
      if (!own.length && value.length > 0)
        return { property: 'subSegments', message: because('must NOT have more than 0 items', why) };
      const index = value.findIndex((item) => !own.includes(item as string));
      return index < 0
        ? undefined
        : { property: ['subSegments', index], message: because(`must be one of ${own.join(', ')}`, why) };
    },
  };
}

const AGE_RANGE_ONLY = 'only age and senior programs take an age range';
const ageRule: CreateRule = {
  json: {
    if: segmentIs({ enum: AGE_BOUNDED_SEGMENTS }),
    else: {
      properties: {
        minAge: { type: 'null', description: AGE_RANGE_ONLY },
        maxAge: { type: 'null', description: AGE_RANGE_ONLY },
      },
    },
  },
  refusal(body) {
    if ((AGE_BOUNDED_SEGMENTS as readonly unknown[]).includes(body.segment)) return undefined;
    const property = (['minAge', 'maxAge'] as const).find(
      (key) => body[key] !== undefined && body[key] !== null,
    );
    return property && { property, message: because('must be null', AGE_RANGE_ONLY) };
  },
};

const NEEDS_CODE = 'a staticCode offer needs its rewardCode';
const STATIC_CODE_ONLY = 'only a staticCode offer takes a rewardCode';
const offerRule: CreateRule = {
  json: {
    if: { required: ['offerType'], properties: { offerType: { const: 'staticCode' } } },
    then: {
      required: ['rewardCode'],
      properties: { rewardCode: { type: 'string', description: NEEDS_CODE } },
      description: NEEDS_CODE,
    },
    else: { properties: { rewardCode: { type: 'null', description: STATIC_CODE_ONLY } } },
  },
  refusal({ offerType, rewardCode }) {
    if (offerType !== 'staticCode')
      return rewardCode === undefined || rewardCode === null
        ? undefined
        : { property: 'rewardCode', message: because('must be null', STATIC_CODE_ONLY) };
    if (rewardCode === undefined)
      return { property: 'rewardCode', message: because('is required', NEEDS_CODE) };
    return typeof rewardCode === 'string'
      ? undefined
      : { property: 'rewardCode', message: because('must be string', NEEDS_CODE) };
  },
};

const createRules: readonly CreateRule[] = [...segmentNames.map(subSegmentsRule), ageRule, offerRule];

export const ProgramCreateRequest = z
  .preprocess(
    (value, ctx) => {
      // Ajv checks the allOf before the object's own keywords (required, additionalProperties, properties),
      // and stops at its first refusal; a value that is not an object passes every rule.
      if (!isJsonObject(value)) return value;
      for (const rule of createRules) {
        const refusal = rule.refusal(value);
        if (refusal === undefined) continue;
        const path = typeof refusal.property === 'string' ? [refusal.property] : refusal.property;
        ctx.addIssue({ code: 'custom', message: refusal.message, path, input: value });
        break;
      }
      return value;
    },
    z.strictObject({
      accountId: programAccountId,
      ...programSettings,
      name: ProgramName,
      segment: Segment,
    }),
  )
  .meta({
    id: 'ProgramCreateRequest',
    description:
      'A new program of the account. A property given as null is the same as leaving it out. subSegments ' +
      'must belong to the segment, minAge and maxAge are for age and senior programs only, rewardCode goes ' +
      'with a staticCode offer (and is required there).',
    allOf: createRules.map((rule) => rule.json),
  });
