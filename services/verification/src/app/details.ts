import type { VerificationAnswer } from '../domain/answer';
import type { VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { openMetadata, openPerson } from './person';

/**
 * What the details endpoint shows of a verification (for the program's account, and to staff inside
 * AdminVerification): the service's own view, turned into the protobuf VerificationDetails by
 * grpc/mapping.ts only.
 */
export interface VerificationDetails {
  programId: string;
  /** '' when none. */
  trackingId: string;
  /** Pseudonymous, per account; '' before personal info was submitted. */
  personId: string;
  /** Epoch milliseconds. */
  created: number;
  updated: number;
  lastResponse: VerificationAnswer;
  /** Unset before personal info was submitted. */
  personInfo: PersonInfo | undefined;
  /** The client's identifier of the person; '' when none. */
  externalUserId: string;
  docUploadRejectionCount: number;
  docUploadRejectionReasons: string[];
  /** INSTANT or MANUAL once decided, '' before. */
  verificationMethod: string;
  confirmedSegments: ConfirmedSegment[];
}

/** A catalog organization: its id and name. */
export interface OrganizationRef {
  id: number;
  name: string;
}

/** The person as the details show it, decrypted: '' for a field the form did not ask for. */
export interface PersonInfo {
  firstName: string;
  lastName: string;
  email: string;
  birthDate: string;
  metadata: Record<string, string>;
  organization: OrganizationRef | undefined;
}

export interface ConfirmedSegment {
  segment: string;
  subSegment: string | undefined;
  organization: OrganizationRef | undefined;
  active: boolean;
  /** YYYY-MM-DD, '' when unknown. */
  startDate: string;
  endDate: string;
}

/** The details of a verification, its person decrypted: for the program's account, or for staff. */
export function detailsOf(ctx: AppContext, record: VerificationRecord): VerificationDetails {
  const person = openPerson(ctx, record.id, record.person);
  const metadata = openMetadata(ctx, record.id, record.metadata);
  const organization =
    record.organizationId !== null
      ? { id: record.organizationId, name: record.organizationName ?? '' }
      : undefined;
  return {
    programId: record.programId,
    trackingId: record.trackingId ?? '',
    personId: record.personEmailHash ? personId(ctx, record) : '',
    created: record.createdAt.getTime(),
    updated: record.updatedAt.getTime(),
    lastResponse: record.lastResponse,
    personInfo: person
      ? {
          firstName: person.firstName ?? '',
          lastName: person.lastName ?? '',
          email: person.email ?? '',
          birthDate: person.birthDate ?? '',
          metadata,
          organization,
        }
      : undefined,
    externalUserId: typeof person?.externalUserId === 'string' ? person.externalUserId : '',
    docUploadRejectionCount: record.docUploadRejectionCount,
    docUploadRejectionReasons: record.docUploadRejectionReasons,
    verificationMethod: record.verificationMethod ?? '',
    confirmedSegments:
      record.currentStep === 'success'
        ? [
            {
              segment: record.segment,
              subSegment: record.subSegment ?? undefined,
              organization,
              active: true,
              startDate: '',
              endDate: '',
            },
          ]
        : [],
  };
}

/** Pseudonymous and per account: the same person has another id in another account's programs. */
function personId(ctx: AppContext, record: VerificationRecord): string {
  return ctx.person
    .lookupHash(`${record.accountId}:${record.personEmailHash!.toString('hex')}`)
    .toString('hex')
    .slice(0, 24);
}
