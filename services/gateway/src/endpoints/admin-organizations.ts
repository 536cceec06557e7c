import { z } from 'zod';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import {
  AddSchoolAccepted,
  AddSchoolAcceptRequest,
  AddSchoolDeclined,
  AddSchoolDeclineRequest,
  AddSchoolRequestPage,
  addSchoolStatuses,
  OrganizationDetail,
} from './admin-organization-schemas';
import { er, hexIdParameter, sem, withBody } from './common';
import { defineEndpoint, type BodyOf, type QueryOf } from './define';
import { hexId, integer, oneOf } from './query';
import { integerValue } from './schemas-numbers';

/**
 * The catalog and the add-school review queue under /rest/admin/v1 (operator token), described once; the
 * routes are routes/admin/organizations.ts, the import endpoints/admin-organization-import.ts.
 */
const requestParams = z.object({ requestId: hexIdParameter('An add-school request') });
const noRequest = sem('No such add-school request');
const decided = sem('The request was already accepted or declined');

export const getOrganization = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/organizations/{organizationId}',
  operationId: 'adminGetOrganization',
  summary: 'One catalog organization with its domains and external key',
  params: z.object({
    organizationId: integerValue()
      .min(1)
      .meta({ description: 'The organization id (a positive integer; any other value is answered 404)' }),
  }),
  responses: {
    '200': { description: 'The organization', body: OrganizationDetail },
    ...unauthorized,
    '404': er('No such organization (errorIds [noOrganization])'),
  },
});

export const listAddSchoolRequests = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/addSchoolRequests',
  operationId: 'adminListAddSchoolRequests',
  summary: 'Add-school requests, newest first',
  strictQuery: true,
  query: z.object({
    status: oneOf(addSchoolStatuses, {
      description: 'Only requests in this state (default: all)',
    }).optional(),
    programId: hexId().optional(),
    pageSize: integer({ min: 1, max: 500, fallback: 100 }).optional(),
    pageToken: pageCursor(
      'nextPageToken of the previous page, as it came (opaque); left out for the first page',
    ).optional(),
  }),
  responses: {
    '200': { description: 'One page of requests', body: AddSchoolRequestPage },
    '400': er(
      'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
        'a value that does not match its schema, or a pageToken that is not one the organizations service gave ' +
        '(a pageToken is opaque: only a nextPageToken reads back) (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export const acceptAddSchoolRequest = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/addSchoolRequests/{requestId}/accept',
  operationId: 'adminAcceptAddSchoolRequest',
  summary: 'Adds the requested school to the catalog and closes the request',
  params: requestParams,
  body: AddSchoolAcceptRequest,
  responses: {
    '200': { description: 'The closed request and the new organization', body: AddSchoolAccepted },
    ...withBody,
    '400': er(
      'The body does not match its schema, or the organizations service refuses a value the schema cannot ' +
        'judge (errorIds [invalidRequest]; systemErrorMessage names the field): a domain that does not ' +
        'end in a registrable name under a top-level domain of the Public Suffix List (ICANN section), ' +
        'a name without a letter or digit',
    ),
    ...unauthorized,
    '404': noRequest,
    '409': decided,
  },
});

export const declineAddSchoolRequest = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/addSchoolRequests/{requestId}/decline',
  operationId: 'adminDeclineAddSchoolRequest',
  summary: 'Closes the request without adding the school',
  params: requestParams,
  // The reason is optional, and so is the body that would carry it.
  body: AddSchoolDeclineRequest,
  bodyOptional: true,
  responses: {
    '200': { description: 'The closed request', body: AddSchoolDeclined },
    ...withBody,
    ...unauthorized,
    '404': noRequest,
    '409': decided,
  },
});

export type AddSchoolListQuery = QueryOf<typeof listAddSchoolRequests>;
export type AcceptBody = BodyOf<typeof acceptAddSchoolRequest>;
export type DeclineBody = BodyOf<typeof declineAddSchoolRequest>;

export const adminOrganizationEndpoints = [
  getOrganization,
  listAddSchoolRequests,
  acceptAddSchoolRequest,
  declineAddSchoolRequest,
] as const;
