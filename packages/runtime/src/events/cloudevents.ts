import { randomUUID } from 'node:crypto';

/**
 * CloudEvents 1.0, Kafka protocol binding, binary content mode (docs/architecture.md, "Events"): the protobuf
 * payload is the message value and the attributes travel as `ce_*` headers, so consumers can route and
 * deduplicate without decoding the payload.
 */
export const CE_SPECVERSION = '1.0';
export const EVENT_CONTENT_TYPE = 'application/protobuf';

export const CE_HEADERS = {
  specversion: 'ce_specversion',
  id: 'ce_id',
  source: 'ce_source',
  type: 'ce_type',
  time: 'ce_time',
  subject: 'ce_subject',
  contentType: 'content-type',
} as const;

// Service names are proto package segments (eligo.<svc>.v1), so no hyphens; event names are proto messages.
const SERVICE = /^[a-z][a-z0-9_]*$/;
const EVENT_NAME = /^[A-Z][A-Za-z0-9]*$/;
const SOURCE = /^\/eligo\/([a-z][a-z0-9_]*)$/;
const TYPE = /^eligo\.([a-z][a-z0-9_]*)\.(v[1-9][0-9]*)\.([A-Z][A-Za-z0-9]*)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export class InvalidCloudEventError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid CloudEvent headers: ${problems.join('; ')}`);
    this.name = 'InvalidCloudEventError';
    this.problems = problems;
  }
}

function assertService(service: string): void {
  if (!SERVICE.test(service)) throw new Error(`invalid service name ${JSON.stringify(service)}`);
}

/** `eligo.<svc>.events.v1`: one topic per service, all of its event types. */
export function topicFor(service: string): string {
  assertService(service);
  return `eligo.${service}.events.v1`;
}

export function eventSource(service: string): string {
  assertService(service);
  return `/eligo/${service}`;
}

/** `eligo.<svc>.v1.<EventName>`, the fully qualified name of the protobuf message in the payload. */
export function eventType(service: string, eventName: string): string {
  assertService(service);
  if (!EVENT_NAME.test(eventName)) throw new Error(`invalid event name ${JSON.stringify(eventName)}`);
  return `eligo.${service}.v1.${eventName}`;
}

export interface NewCloudEvent {
  service: string;
  eventName: string;
  /** The aggregate id; it is also the Kafka message key. */
  subject: string;
  /** Defaults to a random UUID; give one only to republish the same logical event. */
  id?: string;
  time?: Date;
}

export function buildCloudEventHeaders(event: NewCloudEvent): Record<string, string> {
  if (event.subject === '') throw new Error('a CloudEvent needs a subject (the aggregate id)');
  const id = event.id ?? randomUUID();
  if (!UUID.test(id)) throw new Error(`ce_id must be a UUID, got ${JSON.stringify(id)}`);
  return {
    [CE_HEADERS.specversion]: CE_SPECVERSION,
    [CE_HEADERS.id]: id,
    [CE_HEADERS.source]: eventSource(event.service),
    [CE_HEADERS.type]: eventType(event.service, event.eventName),
    [CE_HEADERS.time]: (event.time ?? new Date()).toISOString(),
    [CE_HEADERS.subject]: event.subject,
    [CE_HEADERS.contentType]: EVENT_CONTENT_TYPE,
  };
}

export interface CloudEventAttributes {
  id: string;
  source: string;
  type: string;
  time: string;
  subject: string;
  /** Parsed from `type`: the producing service and the protobuf message name. */
  service: string;
  eventName: string;
}

function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  // Date.parse rolls 2024-02-30 over to March 1st; a round trip of the calendar fields catches that.
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/** Validates every required attribute and reports all problems at once (a producer bug is fixed in one go). */
export function parseCloudEventHeaders(
  headers: Readonly<Record<string, string | undefined>>,
): CloudEventAttributes {
  const problems: string[] = [];
  const get = (name: string): string => {
    const value = headers[name];
    if (value === undefined || value === '') problems.push(`${name} is missing`);
    return value ?? '';
  };
  const specversion = get(CE_HEADERS.specversion);
  const id = get(CE_HEADERS.id);
  const source = get(CE_HEADERS.source);
  const type = get(CE_HEADERS.type);
  const time = get(CE_HEADERS.time);
  const subject = get(CE_HEADERS.subject);
  const contentType = get(CE_HEADERS.contentType);

  if (specversion && specversion !== CE_SPECVERSION)
    problems.push(`unsupported ce_specversion ${specversion}`);
  if (id && !UUID.test(id)) problems.push('ce_id is not a UUID');
  const sourceMatch = source ? SOURCE.exec(source) : null;
  if (source && !sourceMatch) problems.push(`ce_source ${source} is not /eligo/<service>`);
  const typeMatch = type ? TYPE.exec(type) : null;
  if (type && !typeMatch) problems.push(`ce_type ${type} is not eligo.<service>.v<n>.<EventName>`);
  if (sourceMatch && typeMatch && sourceMatch[1] !== typeMatch[1]) {
    problems.push(`ce_type ${type} does not belong to ce_source ${source}`);
  }
  if (time && !isRfc3339(time)) problems.push('ce_time is not an RFC 3339 timestamp');
  if (contentType && contentType !== EVENT_CONTENT_TYPE)
    problems.push(`unsupported content-type ${contentType}`);

  if (problems.length > 0) throw new InvalidCloudEventError(problems);
  return { id, source, type, time, subject, service: typeMatch![1]!, eventName: typeMatch![3]! };
}
