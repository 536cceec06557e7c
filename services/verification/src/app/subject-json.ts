import { invalidArgument } from '@eligo/runtime';
import {
  allowedKeysMessage,
  DEVICE_FINGERPRINT_HASH_RULE,
  unexpectedKeys,
  validDeviceFingerprintHash,
  type SubjectInput,
  type SubjectType,
} from '../domain';

const STRING_FIELDS = [
  'firstName',
  'lastName',
  'birthDate',
  'email',
  'postalCode',
  'phoneNumber',
  'country',
  'dischargeDate',
  'status',
  'address1',
  'city',
  'state',
  'driverLicenseNumber',
  'ebtCardNumber',
  'locale',
  'externalUserId',
  'memberId',
  'employeeId',
  'organizationEmail',
] as const;

const invalid = (message: string) => invalidArgument(message, { errorIds: ['invalidRequest'] });

/**
 * A subject given as JSON inside a token (the gateway checks JSON bodies itself; a token's payload reaches
 * the service unchecked): only the type's keys, each of its JSON type. A deviceFingerprintHash is checked
 * here and dropped (nothing uses it); every other value is the domain's to judge.
 */
export function subjectFromJson(type: SubjectType, json: Record<string, unknown>): SubjectInput {
  const unexpected = unexpectedKeys(type, Object.keys(json));
  if (unexpected.length > 0) throw invalid(allowedKeysMessage(type, unexpected[0]));
  const subject: Record<string, unknown> = {};
  for (const field of STRING_FIELDS) {
    const value = json[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalid(`${field}: must be a string`);
    subject[field] = value;
  }
  const { organization, statuses, metadata, universityId, deviceFingerprintHash } = json;
  if (
    deviceFingerprintHash !== undefined &&
    deviceFingerprintHash !== null &&
    (typeof deviceFingerprintHash !== 'string' || !validDeviceFingerprintHash(deviceFingerprintHash))
  )
    throw invalid(`deviceFingerprintHash: must be ${DEVICE_FINGERPRINT_HASH_RULE}`);
  if (organization !== undefined && organization !== null) {
    const org = organization as { id?: unknown; name?: unknown };
    if (typeof org !== 'object' || (org.id !== undefined && !Number.isSafeInteger(org.id)))
      throw invalid('organization: must be {id, name}');
    subject.organization = { id: Number(org.id ?? 0), name: typeof org.name === 'string' ? org.name : '' };
  }
  if (statuses !== undefined) {
    if (!Array.isArray(statuses) || statuses.some((s) => typeof s !== 'string'))
      throw invalid('statuses: must be an array of strings');
    subject.statuses = statuses;
  }
  if (metadata !== undefined) {
    if (
      typeof metadata !== 'object' ||
      metadata === null ||
      Object.values(metadata).some((v) => typeof v !== 'string')
    )
      throw invalid('metadata: must be a flat map of strings');
    subject.metadata = metadata;
  }
  if (universityId !== undefined) {
    if (!Number.isSafeInteger(universityId)) throw invalid('universityId: must be an integer');
    subject.universityId = universityId;
  }
  return subject as SubjectInput;
}
