import type { Request } from 'express';
import { isDomainError } from '@eligo/runtime';
import {
  hexIdList,
  optionalCountry,
  optionalEnum,
  optionalHexId,
  optionalInt,
  optionalText,
  requiredText,
  strictQuery,
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

  // A NUL in a tracking id or a name reached Postgres (500); whitespace around a text is the service's to trim.
  it('refuses control characters inside a text, not in the whitespace around it', () => {
    for (const bad of ['a\u0000b', 'a\nb', 'a\u0085'])
      expect(message(() => optionalText(q({ trackingId: bad }), 'trackingId', 256))?.message).toBe(
        'query.trackingId must not contain control characters',
      );
    expect(requiredText(q({ name: '\tzurich\n' }), 'name', 200)).toBe('\tzurich\n');
  });

  it('reads a country in any case as upper case; empty means none', () => {
    expect(optionalCountry(q({ country: 'ch' }), 'country')).toBe('CH');
    expect(optionalCountry(q({ country: '' }), 'country')).toBeUndefined();
    for (const bad of ['CHE', 'AA', 'zz', ' us'])
      expect(message(() => optionalCountry(q({ country: bad }), 'country'))?.message).toBe(
        `query.country: ${JSON.stringify(bad)} is not an ISO 3166-1 alpha-2 country code`,
      );
  });

  // An empty value of a typed parameter names nothing: refused, as the document's schema says (it used to
  // be taken as absent, which the document did not say).
  it('refuses an empty number, enum or id', () => {
    expect(message(() => optionalInt(q({ limit: '' }), 'limit', 1, 100))?.message).toBe(
      'query.limit must be an integer from 1 to 100',
    );
    expect(message(() => optionalEnum(q({ status: '' }), 'status', ['a', 'b']))?.message).toBe(
      'query.status must be one of a, b',
    );
    expect(message(() => optionalHexId(q({ programId: '' }), 'programId'))?.message).toBe(
      'query.programId must be 24 lowercase hex characters',
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
    for (const empty of ['', ',', ['', '']])
      expect(message(() => hexIdList(q({ ids: empty }), 'ids', 3))?.message).toBe(
        'query.ids must name at least one id (leave it out to mean all)',
      );
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

  it('reads an admin list strictly: no parameter it does not have, no empty value', () => {
    const allowed = ['status', 'cursor'];
    expect(strictQuery(q({ status: 'pending', cursor: 'c1' }), allowed)).toBeUndefined();
    expect(strictQuery(q({}), allowed)).toBeUndefined();
    expect(message(() => strictQuery(q({ stauts: 'pending' }), allowed))).toEqual({
      errorIds: ['invalidRequest'],
      message: 'query has unexpected parameter stauts (allowed: status, cursor)',
    });
    expect(message(() => strictQuery(q({ cursor: '' }), allowed))?.message).toBe(
      'query.cursor must not be empty (leave it out instead)',
    );
  });
});
