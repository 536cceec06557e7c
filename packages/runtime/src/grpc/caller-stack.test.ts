import { namedCall, restoreStackTraces, withoutCallerStack } from './caller-stack';

describe('withoutCallerStack', () => {
  it('captures no frames while a call starts, and puts the limit back after, even when the start throws', () => {
    const limit = Error.stackTraceLimit;
    expect(withoutCallerStack(() => new Error('inside').stack)).toBe('Error: inside');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(() =>
      withoutCallerStack(() => {
        throw new Error('start failed');
      }),
    ).toThrow('start failed');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after').stack).toMatch(/\n {4}at /);
  });

  it('is put back once by the callee’s side, and restoring again changes nothing', () => {
    const limit = Error.stackTraceLimit;
    withoutCallerStack(() => {
      restoreStackTraces();
      expect(Error.stackTraceLimit).toBe(limit);
      Error.stackTraceLimit = 3;
    });
    // The callee's own setting stands: only the limit the start took away is put back.
    expect(Error.stackTraceLimit).toBe(3);
    Error.stackTraceLimit = limit;
  });
});

describe('namedCall', () => {
  it('puts the method where grpc-js would have put the caller’s stack', () => {
    const err = new Error('5 NOT_FOUND: No program');
    err.stack = 'Error: 5 NOT_FOUND: No program\n    at callErrorFromStatus (call.js:31:19)\nfor call at\n';
    expect(namedCall(err, '/eligo.programs.v1.ProgramsService/GetProgram').stack).toBe(
      'Error: 5 NOT_FOUND: No program\n    at callErrorFromStatus (call.js:31:19)\n' +
        'for call of /eligo.programs.v1.ProgramsService/GetProgram',
    );
  });

  it('leaves any other error as it is', () => {
    const err = new Error('call aborted by the caller');
    const stack = err.stack;
    expect(namedCall(err, '/x.Y/Z').stack).toBe(stack);
  });
});
