import type { Request } from 'express';
import { invalidRequest } from './request-validator';

/**
 * Query parameters, read one by one with a message naming the parameter the way the OpenAPI document does
 * (query.name). An empty optional parameter counts as absent: forms send `country=` for "any".
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
  if (value.length > maxLength) throw invalidRequest(`query.${name} must be at most ${maxLength} characters`);
  return value;
}

export function optionalText(query: Query, name: string, maxLength: number): string | undefined {
  const value = single(query, name);
  if (!value) return undefined;
  if (value.length > maxLength) throw invalidRequest(`query.${name} must be at most ${maxLength} characters`);
  return value;
}

/** ISO 3166-1 alpha-2 in any case, returned upper case (the catalog's form). */
export function optionalCountry(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (!value) return undefined;
  if (!/^[A-Za-z]{2}$/.test(value)) throw invalidRequest(`query.${name} must be a two-letter country code`);
  return value.toUpperCase();
}

export function optionalInt(query: Query, name: string, min: number, max: number): number | undefined {
  const value = single(query, name);
  if (!value) return undefined;
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
  if (!value) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw invalidRequest(`query.${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function optionalHexId(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (!value) return undefined;
  if (!/^[0-9a-f]{24}$/.test(value))
    throw invalidRequest(`query.${name} must be 24 lowercase hex characters`);
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
  if (!ids.every((id) => /^[0-9a-f]{24}$/.test(id)))
    throw invalidRequest(`query.${name} must be ids of 24 lowercase hex characters`);
  if (ids.length > maxItems) throw invalidRequest(`query.${name} must have at most ${maxItems} ids`);
  return ids;
}
