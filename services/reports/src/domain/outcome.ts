/** What a verification came to, as a report shows it, from the step it is on and that step's error ids. */
export function outcomeOf(currentStep: string | null, errorIds: readonly string[]): string {
  switch (currentStep) {
    case 'success':
      return 'SUCCESS';
    case 'error':
      return errorIds.includes('expiredVerification') ? 'EXPIRED' : 'ERROR';
    case 'pending':
      return 'PENDING_REVIEW';
    case 'docUpload':
      return 'DOC_UPLOAD';
    default:
      return 'IN_PROGRESS';
  }
}
