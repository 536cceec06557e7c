import { security, unauthorized } from './admin.paths';
import { errorResponse, idParameter, jsonResponse } from './refs';

/** The staff view of a verification under /rest/admin/v1 (operator token). */
export function adminVerificationPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/verifications/{verificationId}': {
      servers,
      parameters: [idParameter('verificationId', 'A verification')],
      get: {
        tags: ['admin'],
        operationId: 'adminGetVerification',
        summary: 'Any verification whole, with the history of its steps',
        description:
          'For staff: the state, the details as the program account sees them (person decrypted) and every ' +
          'step the verification took, oldest first, including each recoverable error on a step (a step ' +
          'equal to its previousStep, with errorIds). Reading it changes nothing: a verification past its ' +
          'time is shown as stored.',
        security,
        responses: {
          '200': jsonResponse('The verification', 'AdminVerification'),
          ...unauthorized,
          '404': errorResponse('No such verification (errorIds [noVerification])', 'ErrorResponse'),
        },
      },
    },
  };
}
