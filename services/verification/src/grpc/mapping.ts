import type { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import { emptySubject, type SubjectInput } from '../domain';
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
  };
}

export function submittedSubject(req: verificationV1.SubmitPersonalInfoRequest): SubmittedSubject {
  if (req.input?.$case === 'subjectToken') return { token: req.input.subjectToken };
  // No input at all is an empty subject: validation then names every missing field.
  return { subject: req.input?.$case === 'subject' ? subjectFromProto(req.input.subject) : emptySubject() };
}
