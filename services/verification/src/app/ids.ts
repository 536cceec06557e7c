import { randomBytes } from 'node:crypto';

/** 24 lowercase hex characters from the CSPRNG: unguessable, since flow endpoints take no token. */
export const newVerificationId = (): string => randomBytes(12).toString('hex');

export const isVerificationId = (value: string): boolean => /^[0-9a-f]{24}$/.test(value);
