import { status as Status } from '@grpc/grpc-js';
import {
  conflict,
  failedPrecondition,
  encodeError,
  invalidArgument,
  notFound,
  unauthenticated,
  unavailable,
  type DomainError,
} from '@eligo/runtime';
import { httpErrorOf, toHttpError } from './errors';

/** What a client sees when a service handler threw `err`: the status grpc-js would deliver. */
function overTheWire(err: unknown): Error {
  const { status } = encodeError(err);
  return Object.assign(new Error(status.details), {
    code: status.code,
    details: status.details,
    metadata: status.metadata,
  });
}

describe('toHttpError: a gRPC status from a service becomes the spec status and body', () => {
  it.each<[string, DomainError, number, object]>([
    [
      'not found with errorIds -> 404 ER',
      notFound('Program not found', { errorIds: ['noProgram'] }),
      404,
      { errorIds: ['noProgram'], systemErrorMessage: 'Program not found' },
    ],
    [
      'invalid argument -> 400 ER',
      invalidArgument('schoolCountry is required', { errorIds: ['invalidRequest'] }),
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'schoolCountry is required' },
    ],
    [
      'conflict -> 409',
      conflict('A webhook already exists', { errorIds: ['webhookExists'] }),
      409,
      { errorIds: ['webhookExists'], systemErrorMessage: 'A webhook already exists' },
    ],
    [
      "a status the spec gives an errorId wins over the kind's (no codes left -> 409)",
      failedPrecondition('No codes left', { errorIds: ['noRemainingRewardCodes'] }),
      409,
      { errorIds: ['noRemainingRewardCodes'], systemErrorMessage: 'No codes left' },
    ],
    [
      "a reason's status wins over the kind's (a used upload URL -> 410 SEM)",
      notFound('The upload URL was used', { reason: 'uploadUrlUsed' }),
      410,
      { systemErrorMessage: 'The upload URL was used' },
    ],
    [
      "the document store's failure (reason documentStoreFailed) -> 502 SEM, the service's message kept",
      unavailable('The file could not be stored; upload it again', { reason: 'documentStoreFailed' }),
      502,
      { systemErrorMessage: 'The file could not be stored; upload it again' },
    ],
    [
      'a SEM body without errorIds',
      notFound('Unknown verification'),
      404,
      { systemErrorMessage: 'Unknown verification' },
    ],
    [
      'unauthenticated without errorIds -> 401 SEM',
      unauthenticated('Access token is empty or invalid'),
      401,
      { systemErrorMessage: 'Access token is empty or invalid' },
    ],
  ])('%s', (_name, err, status, body) => {
    expect(toHttpError(overTheWire(err))).toEqual({ status, body });
    // A domain error raised in the gateway itself maps the same way.
    expect(toHttpError(err)).toEqual({ status, body });
  });

  it('turns an unexpected failure into 500 with a generic message, never the original text', () => {
    const mapped = toHttpError(overTheWire(new Error('relation "programs" does not exist')));
    expect(mapped).toEqual({
      status: 500,
      body: { errorIds: ['internalServerError'], systemErrorMessage: 'Internal server error' },
    });
    expect(toHttpError(new TypeError('x is undefined')).status).toBe(500);
  });

  it.each([
    [Status.UNAVAILABLE, 503],
    [Status.DEADLINE_EXCEEDED, 504],
  ])('maps transport failure %s to %s without leaking detail', (code, http) => {
    const err = Object.assign(new Error('14 UNAVAILABLE: connect ECONNREFUSED 10.0.0.7:9090'), {
      code,
      details: 'connect ECONNREFUSED 10.0.0.7:9090',
    });
    const mapped = toHttpError(err);
    expect(mapped.status).toBe(http);
    expect(JSON.stringify(mapped.body)).not.toContain('10.0.0.7');
  });
});

describe('httpErrorOf: failures before a route runs', () => {
  it("answers the router's path decoding error (admin, OAuth, uploads) 400 invalidRequest, not 500", () => {
    // What Express 5's router raises for `/rest/admin/v1/programs/%E0%A4%A`.
    const err = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 });
    expect(httpErrorOf(err)).toEqual({
      status: 400,
      body: {
        errorIds: ['invalidRequest'],
        systemErrorMessage: 'The path is not valid percent-encoded UTF-8',
      },
    });
    expect(httpErrorOf(new URIError('something else')).status).toBe(500);
  });
});
