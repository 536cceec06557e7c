import type { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import type { SubjectInput } from '../domain';
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
  return { subject: subjectFromProto(req.input?.$case === 'subject' ? req.input.subject : emptySubject()) };
}

function emptySubject(): verificationVerificationV1.Subject {
  return {
    firstName: '',
    lastName: '',
    birthDate: '',
    email: '',
    organization: undefined,
    metadata: {},
    postalCode: '',
    phoneNumber: '',
    country: '',
    dischargeDate: '',
    status: '',
    statuses: [],
    address1: '',
    city: '',
    state: '',
    driverLicenseNumber: '',
    ebtCardNumber: '',
    universityId: 0,
  };
}
