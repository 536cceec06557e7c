import { organizationsEventsV1 } from '@eligo/proto';
import { outboxWriter, type Knex } from '@eligo/runtime';
import type { Organization } from '../domain/organization';

/**
 * The organizations service's domain events (events.proto), written to the outbox in the caller's
 * transaction so that they commit with the change they announce. Organization events are keyed by the
 * organization id, add-school events by the request id. None carries PII: requesters' names and emails
 * never leave the service.
 */
type Trx = Knex.Transaction;

/** The encode half of a generated message; its name is the event name (ce_type eligo.organizations.v1.<Name>). */
const enqueue = outboxWriter<keyof typeof organizationsEventsV1>('organizations');

const {
  OrganizationAdded,
  OrganizationUpdated,
  AddSchoolRequested,
  AddSchoolRequestAccepted,
  AddSchoolRequestDeclined,
} = organizationsEventsV1;

export const organizationAdded = (trx: Trx, schema: string, org: Organization) =>
  enqueue(trx, schema, 'OrganizationAdded', OrganizationAdded, String(org.id), {
    organizationId: org.id,
    type: org.type,
    country: org.country,
    name: org.name,
    externalKey: org.externalKey,
    occurredAt: new Date(),
  });

export const organizationUpdated = (trx: Trx, schema: string, org: Organization) =>
  enqueue(trx, schema, 'OrganizationUpdated', OrganizationUpdated, String(org.id), {
    organizationId: org.id,
    type: org.type,
    country: org.country,
    name: org.name,
    externalKey: org.externalKey,
    occurredAt: new Date(),
  });

export const addSchoolRequested = (
  trx: Trx,
  schema: string,
  request: { requestId: string; programId: string; schoolCountry: string },
) =>
  enqueue(trx, schema, 'AddSchoolRequested', AddSchoolRequested, request.requestId, {
    requestId: request.requestId,
    programId: request.programId,
    schoolCountry: request.schoolCountry,
    occurredAt: new Date(),
  });

export const addSchoolRequestAccepted = (
  trx: Trx,
  schema: string,
  request: { requestId: string; programId: string; organizationId: number },
) =>
  enqueue(trx, schema, 'AddSchoolRequestAccepted', AddSchoolRequestAccepted, request.requestId, {
    requestId: request.requestId,
    programId: request.programId,
    organizationId: request.organizationId,
    occurredAt: new Date(),
  });

export const addSchoolRequestDeclined = (
  trx: Trx,
  schema: string,
  request: { requestId: string; programId: string },
) =>
  enqueue(trx, schema, 'AddSchoolRequestDeclined', AddSchoolRequestDeclined, request.requestId, {
    requestId: request.requestId,
    programId: request.programId,
    occurredAt: new Date(),
  });
