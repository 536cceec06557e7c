import { isId } from '@eligo/vocabulary';
import type { Request } from 'express';
import { COUNTRY_CODES } from '../openapi/schemas/countries';
import { invalidRequest } from './request-validator';

/**
 * Query parameters, read one by one with a message naming the parameter the way the OpenAPI document does
 * (query.name). An empty text parameter counts as absent (forms send `country=` for "any", an empty cursor
 * is the first page), and the document says so (allowEmptyValue); an empty number, enum or id names nothing
 * and is 400, as the document's schema says.
 */
type Query = Request['query'];

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`query.${name} must be given once, as a plain value`);
  return value;
}

export function requiredText(query: Query, name: string, maxLength: number): string {
  const value = single(query, name);
  if (!value) throw invalidRequest(`query.${name} is required`);
  return checkedText(name, value, maxLength);
}

export function optionalText(query: Query, name: string, maxLength: number): string | undefined {
  const value = single(query, name);
  if (!value) return undefined;
  return checkedText(name, value, maxLength);
}

/**
 * Free text: bounded, and no control characters once trimmed (a NUL reaching Postgres is a 500, not the
 * client's 400; surrounding whitespace, tabs and line breaks included, is the services' to trim).
 */
function checkedText(name: string, value: string, maxLength: number): string {
  if (value.length > maxLength) throw invalidRequest(`query.${name} must be at most ${maxLength} characters`);
  if (CONTROL_CHARACTERS.test(value.trim()))
    throw invalidRequest(`query.${name} must not contain control characters`);
  return value;
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** ISO 3166-1 alpha-2 in any case, returned upper case (the catalog's form); empty means any country. */
export function optionalCountry(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (!value) return undefined;
  const code = value.toUpperCase();
  if (!COUNTRY_CODES.includes(code))
    throw invalidRequest(`query.${name}: ${JSON.stringify(value)} is not an ISO 3166-1 alpha-2 country code`);
  return code;
}

export function optionalInt(query: Query, name: string, min: number, max: number): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw invalidRequest(`query.${name} must be an integer from ${min} to ${max}`);
  return n;
}

export function optionalEnum<T extends string>(
  query: Query,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw invalidRequest(`query.${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function optionalHexId(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!isId(value)) throw invalidRequest(`query.${name} must be 24 lowercase hex characters`);
  return value;
}

/**
 * A list of ids given as repeated parameters (?programIds=a&programIds=b), comma-separated (?programIds=a,b)
 * or both; empty entries are skipped and duplicates dropped. Every id is 24 lowercase hex characters.
 */
export function hexIdList(query: Query, name: string, maxItems: number): string[] {
  const raw = query[name];
  if (raw === undefined) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  if (!values.every((v): v is string => typeof v === 'string'))
    throw invalidRequest(`query.${name} must be plain values`);
  const ids = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()))].filter(Boolean);
  if (ids.length === 0)
    throw invalidRequest(`query.${name} must name at least one id (leave it out to mean all)`);
  if (!ids.every((id) => isId(id)))
    throw invalidRequest(`query.${name} must be ids of 24 lowercase hex characters`);
  if (ids.length > maxItems) throw invalidRequest(`query.${name} must have at most ${maxItems} ids`);
  return ids;
}

/**
 * The admin API's lists read their query strictly: a parameter the operation does not have is 400 (a typo
 * such as `?stauts=PENDING` would otherwise list everything), and so is an empty value of any parameter
 * (`?cursor=`): leave a parameter out to mean "none".
 */
export function strictQuery(query: Query, allowed: readonly string[]): void {
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name))
      throw invalidRequest(`query has unexpected parameter ${name} (allowed: ${allowed.join(', ')})`);
    if (value === '') throw invalidRequest(`query.${name} must not be empty (leave it out instead)`);
  }
}
