import { verificationV1, type verificationVerificationV1 } from '@eligo/proto';
import { emptySubject, type SubjectInput } from '../domain';
import type { VerificationAnswer } from '../domain/answer';
import type { AdminVerification } from '../app/admin';
import type { ConfirmedSegment, OrganizationRef, VerificationDetails } from '../app/details';
import type { DocUploadContext } from '../app/documents';
import type { LocateKey } from '../app/locate';
import type { PersonalInfo } from '../app/personal-info-stream';
import type { Reverification } from '../app/reverify';
import type { VerificationSummary } from '../app/search';
import type { SubmittedSubject } from '../app/submit';

/** The proto Subject as the domain reads it: empty strings and an unset organization mean "not given". */
export function subjectFromProto(s: verificationVerificationV1.Subject): SubjectInput {
  return {
    firstName: s.firstName,
    lastName: s.lastName,
    birthDate: s.birthDate,
    email: s.email,
    organization: s.organization ? { id: s.organization.id, name: s.organization.name } : undefined,
    metadata: s.metadata,
    postalCode: s.postalCode,
    phoneNumber: s.phoneNumber,
    country: s.country,
    dischargeDate: s.dischargeDate,
    status: s.status,
    statuses: s.statuses,
    address1: s.address1,
    city: s.city,
    state: s.state,
    driverLicenseNumber: s.driverLicenseNumber,
    ebtCardNumber: s.ebtCardNumber,
    universityId: s.universityId,
    locale: s.locale,
    externalUserId: s.externalUserId,
    memberId: s.memberId,
    employeeId: s.employeeId,
    organizationEmail: s.organizationEmail,
  };
}

export function submittedSubject(req: verificationV1.SubmitPersonalInfoRequest): SubmittedSubject {
  if (req.input?.$case === 'subjectToken') return { token: req.input.subjectToken };
  // No input at all is an empty subject: validation then names every missing field.
  return { subject: req.input?.$case === 'subject' ? subjectFromProto(req.input.subject) : emptySubject() };
}

export function locateKey(req: verificationV1.LocateVerificationRequest): LocateKey {
  switch (req.key?.$case) {
    case 'verificationId':
      return { verificationId: req.key.verificationId };
    case 'tracking':
      return { tracking: req.key.tracking };
    default:
      return undefined;
  }
}

const { ReverifyOutcome } = verificationV1;
const OUTCOMES: Record<Reverification['verdict'], verificationV1.ReverifyOutcome> = {
  eligible: ReverifyOutcome.REVERIFY_OUTCOME_ELIGIBLE,
  needsReview: ReverifyOutcome.REVERIFY_OUTCOME_NEEDS_REVIEW,
  ineligible: ReverifyOutcome.REVERIFY_OUTCOME_INELIGIBLE,
  noPersonalInfo: ReverifyOutcome.REVERIFY_OUTCOME_NO_PERSONAL_INFO,
};

export function reverifyResponse(r: Reverification): verificationV1.ReverifyInstantMatchResponse {
  return {
    outcome: OUTCOMES[r.verdict],
    errorIds: r.verdict === 'ineligible' ? [...r.errorIds] : [],
    currentStep: r.currentStep,
    organizationId: r.organizationId,
  };
}

/** The service's answer as the protobuf VerificationResponse: the same fields, copied one by one. */
export function answerToProto(a: VerificationAnswer): verificationVerificationV1.VerificationResponse {
  return {
    verificationId: a.verificationId,
    currentStep: a.currentStep,
    errorIds: a.errorIds,
    systemErrorMessage: a.systemErrorMessage,
    segment: a.segment,
    subSegment: a.subSegment,
    rewardCode: a.rewardCode,
    consolationRewardCode: a.consolationRewardCode,
    redirectUrl: a.redirectUrl,
    locale: a.locale,
    availableStatuses: a.availableStatuses,
    rejectionReasons: a.rejectionReasons,
    maxReviewTime: a.maxReviewTime,
    estimatedReviewTime: a.estimatedReviewTime,
    instantMatchAttempts: a.instantMatchAttempts,
    country: a.country,
    docUploadToken: a.docUploadToken,
    canResendEmailLoop: a.canResendEmailLoop === true,
  };
}

type ProtoOrganization = verificationVerificationV1.OrganizationRef | undefined;
const organizationToProto = (o: OrganizationRef | undefined): ProtoOrganization =>
  o && { id: o.id, name: o.name };

const segmentToProto = (c: ConfirmedSegment): verificationVerificationV1.ConfirmedSegment => ({
  segment: c.segment,
  subSegment: c.subSegment,
  organization: organizationToProto(c.organization),
  active: c.active,
  startDate: c.startDate,
  endDate: c.endDate,
});

export function detailsToProto(d: VerificationDetails): verificationVerificationV1.VerificationDetails {
  const person = d.personInfo;
  return {
    programId: d.programId,
    trackingId: d.trackingId,
    personId: d.personId,
    created: d.created,
    updated: d.updated,
    lastResponse: answerToProto(d.lastResponse),
    personInfo: person && {
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      birthDate: person.birthDate,
      metadata: person.metadata,
      organization: organizationToProto(person.organization),
    },
    docUploadRejectionCount: d.docUploadRejectionCount,
    docUploadRejectionReasons: d.docUploadRejectionReasons,
    verificationMethod: d.verificationMethod,
    confirmedSegments: d.confirmedSegments.map(segmentToProto),
    externalUserId: d.externalUserId,
  };
}

export function adminToProto(a: AdminVerification): verificationVerificationV1.AdminVerification {
  return {
    verificationId: a.verificationId,
    accountId: a.accountId,
    segment: a.segment,
    subSegment: a.subSegment,
    currentStep: a.currentStep,
    testMode: a.testMode,
    expiresAt: a.expiresAt,
    details: detailsToProto(a.details),
    steps: a.steps.map((s) => ({
      step: s.step,
      previousStep: s.previousStep,
      trigger: s.trigger,
      errorIds: s.errorIds,
      occurredAt: s.occurredAt,
    })),
  };
}

export function docUploadContextToProto(c: DocUploadContext): verificationV1.GetDocUploadContextResponse {
  return {
    verification: answerToProto(c.verification),
    programId: c.programId,
    accountId: c.accountId,
    testMode: c.testMode,
    rejectionCount: c.rejectionCount,
    maxRejections: c.maxRejections,
  };
}

export function personalInfoToProto(p: PersonalInfo): verificationV1.StreamPersonalInfoResponse {
  return {
    verificationId: p.verificationId,
    firstName: p.firstName,
    lastName: p.lastName,
    email: p.email,
    phoneNumber: p.phoneNumber,
    birthDate: p.birthDate,
    postalCode: p.postalCode,
    country: p.country,
    metadata: p.metadata,
  };
}

/** A verification as SearchVerifications lists it; no tracking id is ''. */
export function summaryToProto(v: VerificationSummary): verificationV1.VerificationSummary {
  return {
    verificationId: v.id,
    programId: v.programId,
    accountId: v.accountId,
    segment: v.segment,
    currentStep: v.currentStep,
    testMode: v.testMode,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    trackingId: v.trackingId ?? '',
  };
}
