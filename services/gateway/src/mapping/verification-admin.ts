import type { verificationVerificationV1 } from '@eligo/proto';
import { listedValue } from '../endpoints/admin-common';
import { StepRecord, type AdminVerificationJson } from '../endpoints/admin-verifications';
import { present } from './program';
import { detailsToJson } from './verification';

type AdminVerification = verificationVerificationV1.AdminVerification;

/** The staff view (GET /rest/admin/v1/verifications/{id}); times in epoch milliseconds like details. */
export function adminVerificationToJson(v: AdminVerification, publicBaseUrl: string): AdminVerificationJson {
  return {
    verificationId: v.verificationId,
    accountId: v.accountId,
    segment: v.segment,
    subSegment: v.subSegment ?? null,
    currentStep: v.currentStep,
    testMode: v.testMode,
    // Every stored verification has an expiry (the document's expires is an integer, never null).
    expires: present(v.expiresAt, 'expiresAt').getTime(),
    details: detailsToJson(present(v.details, 'details'), publicBaseUrl),
    steps: v.steps.map((s) => ({
      step: s.step,
      previousStep: s.previousStep || null,
      trigger: listedValue(StepRecord.shape.trigger, s.trigger, 'step trigger'),
      errorIds: [...s.errorIds],
      occurred: s.occurredAt ? s.occurredAt.getTime() : 0,
    })),
  };
}
