import type { z } from 'zod';
import type { verificationVerificationV1 } from '@eligo/proto';
import type * as schemas from '../endpoints/verification-responses';
import { present } from './program';

type VerificationResponse = verificationVerificationV1.VerificationResponse;
type VerificationDetails = verificationVerificationV1.VerificationDetails;
type OrganizationRef = verificationVerificationV1.OrganizationRef;

/**
 * The spec's verification response (VR), as endpoints/verification-responses.ts states it. The first six
 * fields are always there; the others appear with the steps the spec shows them with (submissionUrl while a
 * step awaits input, statusUrl with pending, rewardCode with success, ...), so a client can test for presence.
 */
export type VerificationResponseJson = z.input<typeof schemas.VerificationResponse>;

/** GET /verification/{verificationId}/details. */
export type VerificationDetailsJson = z.input<typeof schemas.VerificationDetails>;

type OrganizationRefJson = NonNullable<VerificationDetailsJson['confirmedSegments'][number]['organization']>;

/** A 400 VR the gateway answers itself on a step endpoint (the request never reached the service). */
export type StepErrorJson = z.input<typeof schemas.VerificationStepError>;

/** Steps that wait for the client to send something to submissionUrl. */
export function awaitsInput(step: string): boolean {
  return step.startsWith('collect') || step === 'sso' || step === 'emailLoop' || step === 'docUpload';
}

/** The REST v2 URL of a verification (its statusUrl), under the configured public base. */
export function verificationUrl(publicBaseUrl: string, verificationId: string): string {
  return `${publicBaseUrl}/rest/v2/verification/${verificationId}`;
}

/**
 * Where a waiting step takes its input. A docUpload attempt has its own token as a last path segment, so that
 * files posted for an attempt that a rejected review has since replaced are refused rather than misfiled.
 */
function submissionUrl(url: string, vr: VerificationResponse): string {
  const step = `${url}/step/${vr.currentStep}`;
  return vr.currentStep === 'docUpload' && vr.docUploadToken
    ? `${step}/${encodeURIComponent(vr.docUploadToken)}`
    : step;
}

export function verificationToJson(
  vr: VerificationResponse,
  publicBaseUrl: string,
): VerificationResponseJson {
  const url = verificationUrl(publicBaseUrl, vr.verificationId);
  const success = vr.currentStep === 'success';
  return {
    verificationId: vr.verificationId,
    currentStep: vr.currentStep,
    errorIds: [...vr.errorIds],
    segment: vr.segment,
    subSegment: vr.subSegment || null,
    locale: vr.locale,
    ...(awaitsInput(vr.currentStep) ? { submissionUrl: submissionUrl(url, vr) } : {}),
    ...(vr.currentStep === 'pending' ? { statusUrl: url } : {}),
    ...(vr.systemErrorMessage ? { systemErrorMessage: vr.systemErrorMessage } : {}),
    ...(vr.rewardCode ? { rewardCode: vr.rewardCode, rewardData: { rewardCode: vr.rewardCode } } : {}),
    ...(success || vr.redirectUrl ? { redirectUrl: vr.redirectUrl || null } : {}),
    ...(vr.consolationRewardCode ? { consolationRewardCode: vr.consolationRewardCode } : {}),
    ...(vr.availableStatuses.length ? { availableStatuses: [...vr.availableStatuses] } : {}),
    ...(vr.rejectionReasons.length ? { rejectionReasons: [...vr.rejectionReasons] } : {}),
    ...(vr.maxReviewTime ? { maxReviewTime: vr.maxReviewTime } : {}),
    ...(vr.estimatedReviewTime ? { estimatedReviewTime: vr.estimatedReviewTime } : {}),
    ...(vr.country ? { country: vr.country } : {}),
    ...(vr.currentStep === 'emailLoop' ? { canResendEmailLoop: vr.canResendEmailLoop } : {}),
    instantMatchAttempts: vr.instantMatchAttempts,
  };
}

/** A reply's verification, which the contract always sets. */
export function replyToJson(
  reply: { verification?: VerificationResponse | undefined },
  publicBaseUrl: string,
): VerificationResponseJson {
  return verificationToJson(present(reply.verification, 'verification'), publicBaseUrl);
}

const organizationToJson = (o: OrganizationRef | undefined): OrganizationRefJson | null =>
  o ? { id: o.id, name: o.name } : null;

export function detailsToJson(d: VerificationDetails, publicBaseUrl: string): VerificationDetailsJson {
  const person = d.personInfo;
  return {
    programId: d.programId,
    trackingId: d.trackingId,
    personId: d.personId,
    created: d.created,
    updated: d.updated,
    lastResponse: verificationToJson(present(d.lastResponse, 'lastResponse'), publicBaseUrl),
    personInfo: person
      ? {
          firstName: person.firstName,
          lastName: person.lastName,
          email: person.email,
          birthDate: person.birthDate,
          metadata: Object.keys(person.metadata).length ? { ...person.metadata } : null,
          organization: organizationToJson(person.organization),
        }
      : null,
    docUploadRejectionCount: d.docUploadRejectionCount,
    docUploadRejectionReasons: [...d.docUploadRejectionReasons],
    // The service's methods are the document's (INSTANT, MANUAL); the tests' conformance check holds it to them.
    verificationMethod: (d.verificationMethod || null) as VerificationDetailsJson['verificationMethod'],
    confirmedSegments: d.confirmedSegments.map((s) => ({
      segment: s.segment,
      subSegment: s.subSegment || null,
      organization: organizationToJson(s.organization),
      active: s.active,
      startDate: s.startDate || null,
      endDate: s.endDate || null,
    })),
    externalUserId: d.externalUserId || null,
  };
}

/** The step endpoints' 400 VR for an error the gateway found: currentStep error, like the service's own. */
export function stepErrorToJson(
  verificationId: string | undefined,
  errorIds: readonly string[],
  systemErrorMessage: string,
): StepErrorJson {
  return {
    ...(verificationId ? { verificationId } : {}),
    currentStep: 'error',
    errorIds: [...errorIds],
    systemErrorMessage,
  };
}
