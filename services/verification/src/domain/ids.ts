import { isId, newId } from '@eligo/vocabulary';

/**
 * Verification ids: the shared 24 lowercase hex characters from the CSPRNG (@eligo/vocabulary), unguessable,
 * since flow endpoints take no token.
 */
export const newVerificationId: () => string = newId;

export const isVerificationId: (value: string) => boolean = isId;
