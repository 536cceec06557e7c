import { Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { conflict, internal, notFound, permissionDenied } from '../errors/domain-error';
import { decodeGrpcError, encodeError, GrpcCallError } from './error-codec';

/** What a client receives for a status: grpc-js turns the status object into a ServiceError. */
function received(err: unknown): ServiceError {
  const { status } = encodeError(err);
  return new GrpcCallError(status.code, status.details, status.metadata);
}

describe('encodeError / decodeGrpcError', () => {
  it('round-trips a domain error with errorIds and a reason (no HTTP detail: the gateway owns HTTP)', () => {
    const err = permissionDenied('Program is not active', {
      errorIds: ['inactiveProgram'],
      reason: 'notStartedYet',
    });
    expect(decodeGrpcError(received(err))).toEqual({
      code: Status.PERMISSION_DENIED,
      codeName: 'PERMISSION_DENIED',
      message: 'Program is not active',
      errorIds: ['inactiveProgram'],
      reason: 'notStartedYet',
      kind: 'permissionDenied',
      circuitOpen: false,
      detail: 'Program is not active',
    });
  });

  it('decodes a domain error that never crossed the wire the same way', () => {
    const err = notFound('No program with this id', { errorIds: ['noProgram', 'other'] });
    expect(decodeGrpcError(err)).toEqual(decodeGrpcError(received(err)));
  });

  it("answers a Postgres data exception (a NUL in a text, a number out of range) as the caller's invalidRequest", () => {
    // What pg raises for a NUL character in a text parameter (knex passes the same object on).
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      severity: 'ERROR',
    });
    const encoded = encodeError(nul);
    expect(encoded.log).toBe('warn');
    expect(decodeGrpcError(received(nul))).toMatchObject({
      code: Status.INVALID_ARGUMENT,
      errorIds: ['invalidRequest'],
      kind: 'invalidArgument',
    });
    expect(decodeGrpcError(received(nul)).message).not.toMatch(/UTF8|0x00/);
    // Other Postgres errors (a broken connection, a constraint) are still the server's.
    const other = Object.assign(new Error('terminating connection'), { code: '57P01', severity: 'FATAL' });
    expect(encodeError(other).status.code).toBe(Status.INTERNAL);
  });

  it('keeps several errorIds and drops ones that cannot travel in a header', () => {
    const err = conflict('Already exists', { errorIds: ['a', 'b_c', 'bad,id', 'new\nline'] });
    expect(decodeGrpcError(received(err)).errorIds).toEqual(['a', 'b_c']);
  });

  it('hides an unknown error behind a generic INTERNAL and asks for one error log', () => {
    const encoded = encodeError(new Error('connection string postgres://u:secret@db'));
    expect(encoded.log).toBe('error');
    expect(encoded.status.code).toBe(Status.INTERNAL);
    expect(encoded.status.details).toBe('Internal server error');
    expect(encoded.status.metadata.getMap()).toEqual({});
  });

  it('keeps the message of a deliberate internal domain error, and still logs it', () => {
    const encoded = encodeError(internal('Report generation failed'));
    expect(encoded).toMatchObject({
      log: 'error',
      status: { code: Status.INTERNAL, details: 'Report generation failed' },
    });
  });

  it('passes a dependency timeout on as DEADLINE_EXCEEDED, marked as not to be retried', () => {
    const downstream = new GrpcCallError(Status.DEADLINE_EXCEEDED, 'Deadline exceeded after 5.001s');
    const decoded = decodeGrpcError(received(downstream));
    expect(decoded).toMatchObject({ code: Status.DEADLINE_EXCEEDED, kind: 'deadlineExceeded' });
    expect(decoded.detail).not.toContain('5.001');
  });

  it('does not forward a dependency domain error: the use case must translate it', () => {
    const downstream = new GrpcCallError(Status.NOT_FOUND, 'No program');
    expect(encodeError(downstream)).toMatchObject({ log: 'error', status: { code: Status.INTERNAL } });
  });

  it('gives transport failures a generic message and keeps the raw text as detail', () => {
    const transport = new GrpcCallError(
      Status.UNAVAILABLE,
      'No connection established. Last error: connect ECONNREFUSED 10.0.0.7:9090',
    );
    expect(decodeGrpcError(transport)).toMatchObject({
      code: Status.UNAVAILABLE,
      message: 'Service unavailable',
      errorIds: [],
      circuitOpen: false,
      detail: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('ignores malformed metadata values', () => {
    const md = new Metadata();
    md.set('eligo-error-kind', 'bogus');
    md.set('eligo-error-reason', 'not a reason');
    const decoded = decodeGrpcError(new GrpcCallError(Status.NOT_FOUND, 'x', md));
    expect(decoded).not.toHaveProperty('kind');
    expect(decoded).not.toHaveProperty('reason');
    expect(decoded.message).toBe('Not found');
  });

  it('treats anything that is not a gRPC error as INTERNAL', () => {
    expect(decodeGrpcError('oops')).toMatchObject({
      code: Status.INTERNAL,
      message: 'Internal server error',
      detail: 'oops',
    });
    expect(decodeGrpcError(Object.assign(new Error('x'), { code: 'ECONNRESET' })).code).toBe(Status.INTERNAL);
  });
});
