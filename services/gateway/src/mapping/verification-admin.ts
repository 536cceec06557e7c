import type { verificationVerificationV1 } from '@eligo/proto';
import { present } from './program';
import { detailsToJson, type VerificationDetailsJson } from './verification';

type AdminVerification = verificationVerificationV1.AdminVerification;

export interface StepRecordJson {
  step: string;
  previousStep: string | null;
  trigger: string;
  errorIds: string[];
  occurred: number;
}

export interface AdminVerificationJson {
  verificationId: string;
  accountId: string;
  segment: string;
  subSegment: string | null;
  currentStep: string;
  testMode: boolean;
  expires: number | null;
  details: VerificationDetailsJson;
  steps: StepRecordJson[];
}

/** The staff view (GET /rest/admin/v1/verifications/{id}); times in epoch milliseconds like details. */
export function adminVerificationToJson(v: AdminVerification, publicBaseUrl: string): AdminVerificationJson {
  return {
    verificationId: v.verificationId,
    accountId: v.accountId,
    segment: v.segment,
    subSegment: v.subSegment ?? null,
    currentStep: v.currentStep,
    testMode: v.testMode,
    expires: v.expiresAt ? v.expiresAt.getTime() : null,
    details: detailsToJson(present(v.details, 'details'), publicBaseUrl),
    steps: v.steps.map((s) => ({
      step: s.step,
      previousStep: s.previousStep || null,
      trigger: s.trigger,
      errorIds: [...s.errorIds],
      occurred: s.occurredAt ? s.occurredAt.getTime() : 0,
    })),
  };
}
