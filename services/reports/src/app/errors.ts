import { notFound } from '@eligo/runtime';

/** Another account's report answers exactly as an unknown one. */
export const noReport = (): Error => notFound('Report not found');

export const noBatch = (): Error => notFound('Re-verification batch not found');
