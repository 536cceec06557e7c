import { randomBytes } from 'node:crypto';

/** Report and batch ids: 24 lowercase hex characters (96 random bits), like program and verification ids. */
export const newId = (): string => randomBytes(12).toString('hex');

export const isId = (value: string): boolean => /^[0-9a-f]{24}$/.test(value);
