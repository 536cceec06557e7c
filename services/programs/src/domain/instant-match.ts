import { subSegmentProblems, type Segment } from '@eligo/vocabulary';
import type { Problems } from './invalid';
import { urlProblem } from './urls';
import type { AllowCidrs } from './webhook-address';

/**
 * A program's instant-match sources (issue 22): which the verification service asks, in order, when a live
 * submission would otherwise go to document review. LIST is the program's customer eligibility list; HTTP the
 * business's own endpoint (httpUrl), asked with a request signed with the program's secret (Standard
 * Webhooks) and answering a signed yes/no. The secret is not a setting: it is only ever set, stored sealed
 * (app/programs.ts) and never shown.
 */
export const INSTANT_SOURCE_TYPES = ['LIST', 'HTTP'] as const;
export type InstantSourceType = (typeof INSTANT_SOURCE_TYPES)[number];

export interface InstantMatchSource {
  type: InstantSourceType;
  /** The program's sub-segments the source is asked for; empty: every one. */
  subSegments: string[];
}

export interface InstantMatchSettings {
  /** In the order they are asked; at most one of each type. */
  sources: InstantMatchSource[];
  /** The HTTP source's endpoint: set exactly when an HTTP source is listed. */
  httpUrl: string | null;
  /**
   * The email loop is offered: a live submission no source matched, whose email is at a domain of the chosen
   * organization, gets a one-time code by mail instead of document review. Absent in settings stored before
   * it existed: false.
   */
  emailLoop?: boolean;
}

/** As a request states them: types unchecked. */
export interface InstantMatchSettingsInput {
  sources: { type: string; subSegments: string[] }[];
  httpUrl: string | null;
  emailLoop?: boolean;
}

export const noInstantMatch = (): InstantMatchSettings => ({ sources: [], httpUrl: null, emailLoop: false });

/** whsec_ + base64 of 24 to 64 bytes: a Standard Webhooks secret, the format the receiver's libraries take. */
const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

export function instantSourceSecretProblem(secret: string): string | undefined {
  const match = SECRET.exec(secret);
  const bytes = match ? Buffer.from(match[1]!, 'base64').length : 0;
  return bytes >= 24 && bytes <= 64 ? undefined : 'must be whsec_ followed by the base64 of 24 to 64 bytes';
}

/**
 * Checks the sources against the program's segment (sub-segments valid for it) and the HTTP endpoint against
 * the webhook URL rules (an absolute http(s) URL without credentials or fragment whose address literal is
 * public or in ELIGO_WEBHOOK_ALLOW_CIDRS; names are judged again when the verification service connects).
 */
export function checkInstantMatch(
  problems: Problems,
  input: InstantMatchSettingsInput,
  segment: Segment | undefined,
  allowCidrs: AllowCidrs,
): InstantMatchSettings {
  const sources: InstantMatchSource[] = [];
  const seen = new Set<string>();
  input.sources.forEach((source, i) => {
    const field = `instantMatch.sources[${i}]`;
    if (!(INSTANT_SOURCE_TYPES as readonly string[]).includes(source.type))
      return problems.add(`${field}.type`, `must be one of ${INSTANT_SOURCE_TYPES.join(' ')}`);
    if (seen.has(source.type)) problems.add(`${field}.type`, `${source.type} is listed twice`);
    seen.add(source.type);
    if (segment && source.subSegments.length > 0)
      for (const p of subSegmentProblems(segment, source.subSegments))
        problems.add(`${field}.subSegments`, p);
    sources.push({ type: source.type as InstantSourceType, subSegments: [...source.subSegments] });
  });
  const httpUrl = input.httpUrl === '' ? null : input.httpUrl;
  if (seen.has('HTTP') && httpUrl === null)
    problems.add('instantMatch.http.url', 'is required for an HTTP source');
  if (!seen.has('HTTP') && httpUrl !== null)
    problems.add('instantMatch.http', 'is allowed only with an HTTP source');
  if (httpUrl !== null) {
    const p = urlProblem(httpUrl, { allowFragment: false, allowCidrs });
    if (p) problems.add('instantMatch.http.url', p);
  }
  return { sources, httpUrl, emailLoop: input.emailLoop === true };
}
