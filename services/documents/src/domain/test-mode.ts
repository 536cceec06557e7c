import type { Decision } from './decision';

export const TEST_MODE_REJECTION_REASON = 'DOCUMENT_UNREADABLE';

/**
 * Test-mode programs need no reviewer (docs/architecture.md, "Wire details"): a file name containing REJECTED
 * rejects the review, else one containing ACCEPTED approves it, else it waits for staff like a live one.
 * Exact upper case, like the firstName triggers, so that ordinary names never trigger by accident.
 */
export function testModeDecision(fileNames: readonly string[]): Decision | undefined {
  if (fileNames.some((name) => name.includes('REJECTED')))
    return { approved: false, rejectionReasons: [TEST_MODE_REJECTION_REASON] };
  if (fileNames.some((name) => name.includes('ACCEPTED'))) return { approved: true, rejectionReasons: [] };
  return undefined;
}
