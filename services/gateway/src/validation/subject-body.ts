import { verificationVerificationV1 } from '@eligo/proto';
import {
  canonicalLocale,
  DEVICE_FINGERPRINT_HASH_RULE,
  EXTERNAL_USER_ID_RULE,
  LOCALE_RULE,
  RESERVED_METADATA_KEYS,
  validDeviceFingerprintHash,
  validExternalUserId,
} from '@eligo/vocabulary';
import { invalidRequest } from './request-validator';
import { GENERIC_SUBJECT_TYPE, subjectKeys } from './subject-keys';

type Subject = verificationVerificationV1.Subject;
type OrganizationRef = verificationVerificationV1.OrganizationRef;

/** What a personal-info step path asks for: a subject of one type, or a marketplace token. */
export type PersonalInfoStep =
  { kind: 'subject'; step: string; type: string } | { kind: 'marketplace'; step: 'collectMarketplaceToken' };

/** Which of the spec's two path shapes a step was posted to. */
export type StepShape = 'verification' | 'program';

export const GENERIC_STEP = 'collectPersonalInfo';
export const MARKETPLACE_STEP = 'collectMarketplaceToken';
/** The subject type whose body may also come as a compact JWS (Content-Type: application/jose). */
export const JOSE_SUBJECT_TYPE = 'DriverLicense';
/** Largest compact JWS accepted as a body or as a marketplace token. */
export const MAX_JWS_BYTES = 16 * 1024;

/**
 * The step of a personal-info path, or undefined when the path names no such step (the route then leaves the
 * request to others: docUpload and future steps). collectPersonalInfo and collectMarketplaceToken exist on
 * the verificationId shape only; collect<Type>PersonalInfo on both.
 */
export function personalInfoStep(step: string, shape: StepShape): PersonalInfoStep | undefined {
  if (shape === 'verification') {
    if (step === GENERIC_STEP) return { kind: 'subject', step, type: GENERIC_SUBJECT_TYPE };
    if (step === MARKETPLACE_STEP) return { kind: 'marketplace', step };
  }
  const type = /^collect([A-Za-z]+)PersonalInfo$/.exec(step)?.[1];
  return type !== undefined && Object.hasOwn(subjectKeys, type) ? { kind: 'subject', step, type } : undefined;
}

type FieldKind =
  | 'text'
  | 'organization'
  | 'metadata'
  | 'statuses'
  | 'universityId'
  | 'locale'
  | 'externalUserId'
  | 'deviceFingerprintHash';

const fieldKinds: Record<string, FieldKind> = {
  organization: 'organization',
  metadata: 'metadata',
  statuses: 'statuses',
  universityId: 'universityId',
  locale: 'locale',
  externalUserId: 'externalUserId',
  deviceFingerprintHash: 'deviceFingerprintHash',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const positiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * A personal-info JSON body -> the proto Subject. Only the keys of the type (its row of the spec's subjects
 * table, and for every type but Student the optional fields clients send) are accepted, each with its JSON
 * type; null counts as not given. Anything else is 400 invalidRequest naming the problem, before any
 * service call. The clients' own fields (locale, externalUserId, deviceFingerprintHash) and the shape of
 * the metadata are checked here too; deviceFingerprintHash is then dropped (nothing uses it). The person's
 * values (dates, emails, statuses) and the metadata limits are the verification domain's to judge: it
 * answers recoverable errors the client can correct.
 */
export function subjectFromJson(type: string, body: unknown): Subject {
  const allowed = subjectKeys[type];
  if (!allowed) throw invalidRequest(`Unknown subject type ${type}`);
  if (!isObject(body)) throw invalidRequest('body must be a JSON object');
  const subject: Partial<Subject> = {};
  const out = subject as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (!allowed.includes(key))
      throw invalidRequest(`Unexpected property '${key}'. Allowed keys: ${allowed.join(', ')}`);
    if (value === null) continue;
    switch (fieldKinds[key] ?? 'text') {
      case 'text':
        if (typeof value !== 'string') throw invalidRequest(`body.${key} must be a string`);
        out[key] = value;
        break;
      case 'organization':
        subject.organization = organizationFromJson(value);
        break;
      case 'metadata':
        subject.metadata = metadataFromJson(value, 'body.metadata');
        break;
      case 'statuses':
        if (!Array.isArray(value) || !value.every((s) => typeof s === 'string'))
          throw invalidRequest('body.statuses must be an array of strings');
        subject.statuses = [...(value as string[])];
        break;
      case 'universityId':
        if (!positiveInteger(value)) throw invalidRequest('body.universityId must be a positive integer');
        subject.universityId = value;
        break;
      case 'locale':
        subject.locale = localeFromJson(value, 'body.locale');
        break;
      case 'externalUserId':
        subject.externalUserId = externalUserIdFromJson(value, 'body.externalUserId');
        break;
      case 'deviceFingerprintHash':
        if (typeof value !== 'string' || !validDeviceFingerprintHash(value))
          throw invalidRequest(`body.deviceFingerprintHash must be ${DEVICE_FINGERPRINT_HASH_RULE}`);
        break;
    }
  }
  return verificationVerificationV1.Subject.fromPartial(subject);
}

function organizationFromJson(value: unknown): OrganizationRef {
  if (!isObject(value))
    throw invalidRequest('body.organization must be an object {id (integer), name (string)}');
  for (const key of Object.keys(value)) {
    if (key !== 'id' && key !== 'name')
      throw invalidRequest(`Unexpected property 'organization.${key}'. Allowed keys: id, name`);
  }
  const { id, name } = value;
  if (id !== undefined && id !== null && !positiveInteger(id))
    throw invalidRequest('body.organization.id must be a positive integer');
  if (name !== undefined && name !== null && typeof name !== 'string')
    throw invalidRequest('body.organization.name must be a string');
  if ((id ?? null) === null && (name ?? '') === '')
    throw invalidRequest('body.organization must have an id or a non-empty name');
  return { id: (id as number | null | undefined) ?? 0, name: (name as string | null | undefined) ?? '' };
}

/**
 * A flat map of strings (verification metadata): no nesting, no numbers, no reserved key (`__proto__`, which
 * an object would take as its prototype and the proto map would silently drop). The limits (50 keys of 1 to
 * 64 characters, values of at most 1,024, no control characters) are the verification service's, which
 * answers them with their own errorIds (maxMetadataValuesExceeded, maxMetadataLengthExceeded).
 */
export function metadataFromJson(value: unknown, at: string): Record<string, string> {
  if (!isObject(value)) throw invalidRequest(`${at} must be an object of string values`);
  const metadata: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (RESERVED_METADATA_KEYS.includes(key))
      throw invalidRequest(`${at}[${JSON.stringify(key)}] is a reserved key`);
    if (typeof v !== 'string') throw invalidRequest(`${at}[${JSON.stringify(key)}] must be a string`);
    metadata[key] = v;
  }
  return metadata;
}

/** A BCP 47 tag as the service stores it (checked with Intl, at most 35 characters). */
export function localeFromJson(value: unknown, at: string): string {
  if (typeof value !== 'string' || canonicalLocale(value) === undefined)
    throw invalidRequest(`${at} must be ${LOCALE_RULE}`);
  return value;
}

/** The client's identifier of the person: 1 to 256 characters without control characters. */
export function externalUserIdFromJson(value: unknown, at: string): string {
  if (typeof value !== 'string' || !validExternalUserId(value))
    throw invalidRequest(`${at} must be ${EXTERNAL_USER_ID_RULE}`);
  return value;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * A compact JWS (three base64url segments separated by dots, at most 16 KiB): the DriverLicense body sent as
 * application/jose, or a marketplace token. The signature is the verification service's to check.
 */
export function compactJws(value: unknown, what: string): string {
  const token = typeof value === 'string' ? value.trim() : undefined;
  if (!token || Buffer.byteLength(token) > MAX_JWS_BYTES || !COMPACT_JWS.test(token))
    throw invalidRequest(`${what} must be a compact JWS (header.payload.signature, at most 16 KiB)`);
  return token;
}

/**
 * The names a marketplace token may come under: the spec's `marketplaceToken`, and `verificationToken`,
 * which clients send. A body carries exactly one of them.
 */
export const MARKETPLACE_TOKEN_KEYS = ['marketplaceToken', 'verificationToken'] as const;

/**
 * The marketplace token of a body (collectMarketplaceToken, POST /verification/marketplace) under either of
 * its names; null counts as not given, as in subject bodies.
 */
export function marketplaceTokenOf(body: Record<string, unknown>): string {
  const given = MARKETPLACE_TOKEN_KEYS.filter((key) => body[key] !== undefined && body[key] !== null);
  if (given.length !== 1)
    throw invalidRequest(`body must have exactly one of ${MARKETPLACE_TOKEN_KEYS.join(', ')}`);
  const key = given[0]!;
  return compactJws(body[key], `body.${key}`);
}

/** The collectMarketplaceToken body: {marketplaceToken} or {verificationToken}. */
export function marketplaceTokenFromJson(body: unknown): string {
  if (!isObject(body)) throw invalidRequest('body must be a JSON object');
  const allowed: readonly string[] = MARKETPLACE_TOKEN_KEYS;
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key))
      throw invalidRequest(`Unexpected property '${key}'. Allowed keys: ${allowed.join(', ')}`);
  }
  return marketplaceTokenOf(body);
}
