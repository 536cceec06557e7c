import { verificationV1, type verificationVerificationV1 } from '@eligo/proto';
import { emptySubject, type SubjectInput } from '../domain';
import type { LocateKey } from '../app/locate';
import type { Reverification } from '../app/reverify';
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
