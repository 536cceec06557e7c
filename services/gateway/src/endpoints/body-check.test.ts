import { z } from 'zod';
import { checkBody } from './body-check';

describe('checkBody words refusals as the document validator did', () => {
  it('names a left-out enum or literal property as required, not as a wrong value', () => {
    expect(checkBody(z.object({ a: z.enum(['x', 'y']) }), {})).toEqual({
      ok: false,
      problem: 'body.a is required',
    });
    expect(checkBody(z.object({ a: z.literal('x') }), {})).toEqual({
      ok: false,
      problem: 'body.a is required',
    });
  });

  it('names a wrong enum value that is there', () => {
    expect(checkBody(z.object({ a: z.enum(['x', 'y']) }), { a: 'z' })).toEqual({
      ok: false,
      problem: 'body.a must be one of x, y',
    });
  });
});
