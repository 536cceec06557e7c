import { errorResponse } from './refs';

/**
 * The REST v2 report paths are endpoints/report.ts's definitions. What is left here is the 403 of a missing
 * role, which the hand-written re-verification paths (reverify.paths.ts) still state; endpoints/report.ts
 * exports the same for definitions.
 */
export const missingRole = (role: string) => ({
  '403': errorResponse(`The access token does not have the ${role} role`, 'SystemErrorMessage'),
});
