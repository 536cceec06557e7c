import type { Request } from 'express';
import { isDomainError } from '@eligo/runtime';
import {
  hexIdList,
  optionalCountry,
  optionalEnum,
  optionalHexId,
  optionalInt,
  requiredText,
} from './query-params';

const q = (query: Record<string, string | string[]>) => query as Request['query'];
const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (isDomainError(err)) return { errorIds: err.errorIds, message: err.message };
  }
  return undefined;
};

describe('query parameters', () => {
  it('reads a required text, naming it when missing, empty, too long or repeated', () => {
    expect(requiredText(q({ name: 'zurich' }), 'name', 200)).toBe('zurich');
    expect(message(() => requiredText(q({}), 'name', 200))).toEqual({
      errorIds: ['invalidRequest'],
      message: 'query.name is required',
    });
    expect(message(() => requiredText(q({ name: '' }), 'name', 200))?.message).toBe('query.name is required');
    expect(message(() => requiredText(q({ name: 'x'.repeat(201) }), 'name', 200))?.message).toBe(
      'query.name must be at most 200 characters',
    );
    expect(message(() => requiredText(q({ name: ['a', 'b'] }), 'name', 200))?.message).toBe(
      'query.name must be given once, as a plain value',
    );
  });

  it('reads a country in any case as upper case; empty means none', () => {
    expect(optionalCountry(q({ country: 'ch' }), 'country')).toBe('CH');
    expect(optionalCountry(q({ country: '' }), 'country')).toBeUndefined();
    expect(message(() => optionalCountry(q({ country: 'CHE' }), 'country'))?.message).toBe(
      'query.country must be a two-letter country code',
    );
  });

  it('reads integers within bounds only', () => {
    expect(optionalInt(q({ limit: '100' }), 'limit', 1, 100)).toBe(100);
    expect(optionalInt(q({}), 'limit', 1, 100)).toBeUndefined();
    for (const bad of ['0', '101', '1.5', '-1', 'ten', '1e2'])
      expect(message(() => optionalInt(q({ limit: bad }), 'limit', 1, 100))?.message).toBe(
        'query.limit must be an integer from 1 to 100',
      );
  });

  it('reads enums and hex ids', () => {
    expect(optionalEnum(q({ status: 'PENDING' }), 'status', ['PENDING', 'ACCEPTED'] as const)).toBe(
      'PENDING',
    );
    expect(
      message(() => optionalEnum(q({ status: 'pending' }), 'status', ['PENDING'] as const))?.message,
    ).toBe('query.status must be one of PENDING');
    expect(optionalHexId(q({ programId: 'ab'.repeat(12) }), 'programId')).toBe('ab'.repeat(12));
    expect(message(() => optionalHexId(q({ programId: 'nope' }), 'programId'))?.message).toMatch(
      /24 lowercase hex/,
    );
  });

  it('reads a list of ids, repeated and/or comma-separated, without empties or duplicates', () => {
    const [a, b, c] = ['a'.repeat(24), 'b'.repeat(24), 'c'.repeat(24)] as const;
    expect(hexIdList(q({}), 'ids', 3)).toEqual([]);
    expect(hexIdList(q({ ids: '' }), 'ids', 3)).toEqual([]);
    expect(hexIdList(q({ ids: `${a},${b}` }), 'ids', 3)).toEqual([a, b]);
    expect(hexIdList(q({ ids: [`${a},,${b}`, c, a] }), 'ids', 3)).toEqual([a, b, c]);
    for (const bad of [`${a},nope`, 'A'.repeat(24), ['x']]) {
      expect(message(() => hexIdList(q({ ids: bad }), 'ids', 3))).toEqual({
        errorIds: ['invalidRequest'],
        message: 'query.ids must be ids of 24 lowercase hex characters',
      });
    }
    expect(message(() => hexIdList(q({ ids: [a, b, c, 'd'.repeat(24)] }), 'ids', 3))?.message).toBe(
      'query.ids must have at most 3 ids',
    );
  });
});
