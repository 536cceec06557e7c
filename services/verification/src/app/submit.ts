import { asOneStatement, inTransaction, invalidArgument, type Transaction } from '@eligo/runtime';
import {
  acceptsSubmission,
  canonicalLocale,
  GENERIC_COLLECT_STEP,
  hasKey,
  impliedMilitaryStatus,
  MARKETPLACE_COLLECT_STEP,
  nextStepForMilitaryStatus,
  subSegmentOfStatus,
  subSegmentOfStatuses,
  type MilitaryStatus,
  normalizeSubject,
  normalizedEmail,
  normalizedIdentity,
  firstStep,
  isFinal,
  subjectTypeOfStep,
  utcToday,
  type Outcome,
  type Subject,
  type SubjectInput,
  type SubjectType,
} from '../domain';
import { isVerificationId } from '../domain/ids';
import { findVerificationVersion } from '../repository/verifications.repository';
import type { VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { instantMatch, type InstantMatch } from './instant-match';
import { loadLocked, wrongStep, type Loaded } from './load';
import { metadataChanged } from './metadata-changed';
import { openPerson, sealMetadata, sealPerson, type StoredPerson } from './person';
import { endOnLimit, limitReached, refuseOnLimit, succeed } from './person-limit';
import type { Program } from '../domain/program';
import { requireProgram, segmentOf } from './programs';
import type { SourceMethod } from '../domain/instant-sources';
import type { VerificationAnswer } from '../domain/answer';
import { assertMayCreate } from './creation-policy';
import { assertRequestId, startOrFind } from './start';
import { subjectFromJson } from './subject-json';
import { checkSubjectToken, useSubjectToken } from './subject-token';
import { issueEmailLoopCode } from './email-loop';
import { applyChange, applyChangeToRecord, type Cause } from './transition';

export interface PersonalInfoSubmission {
  verificationId: string;
  programId: string;
  trackingId: string;
  /** collect<Type>PersonalInfo, or the generic collectPersonalInfo, or collectMarketplaceToken. */
  step: string;
  submitted: SubmittedSubject;
  /** Idempotency key: a retry answers what the first call did (see loadLocked, startOrFind). */
  requestId?: string;
  /** With programId: the account of the caller's valid token (StartInput.callerAccountId). */
  callerAccountId?: string;
}

/** The subject as fields, or as a compact JWS that carries them (verified with the program's key). */
export type SubmittedSubject = { subject: SubjectInput } | { token: string };

const isGeneric = (step: string) => step === GENERIC_COLLECT_STEP || step === MARKETPLACE_COLLECT_STEP;

/**
 * A personal-info step: validated (recoverable errors keep the step), the organization checked with the
 * organizations service, the person limit applied, then the outcome decided by the domain. On the program
 * path shape the verification is started first, exactly as POST /verification would.
 */
export async function submitPersonalInfo(
  ctx: AppContext,
  input: PersonalInfoSubmission,
): Promise<VerificationAnswer> {
  const budgetEndsAt = Date.now() + ctx.sources.budgetMs;
  assertRequestId(input.requestId);
  const militaryStatus = input.programId ? await preflight(ctx, input) : undefined;
  const verificationId = input.programId
    ? (await startOrFind(ctx, { ...input, programId: input.programId })).id
    : input.verificationId;
  // The remote part of the match (the organization check, the instant-match sources, seconds at worst) runs
  // before the verification is locked; the locked transaction below applies it only if it was computed for
  // what the verification still is (lock, requestId and step decide a concurrent submission as before).
  const prepared = await prepareMatch(ctx, input, verificationId, militaryStatus, budgetEndsAt);
  const cause: Cause = { trigger: 'submitPersonalInfo', requestId: input.requestId };
  // The common case: decided on the verification as prepareMatch read it, and written by one statement if its
  // row is still that version. A decision that needs more (a token to use, the person limit, a second write)
  // or a row that changed meanwhile has stored nothing, and is taken again under the lock below.
  const read = prepared?.read;
  const unlocked = read
    ? await asOneStatement(ctx.db, (trx) => decide(trx, ctx, read, input, cause, prepared))
    : undefined;
  const response = unlocked
    ? unlocked.value
    : await inTransaction(ctx.db, async (trx) => {
        const loaded = await loadLocked(trx, ctx, verificationId, input.requestId);
        if (loaded.settled) return loaded.settled;
        const ready =
          militaryStatus && loaded.record.currentStep === 'collectMilitaryStatus'
            ? await chooseMilitaryStatus(trx, ctx, loaded, militaryStatus, cause.requestId)
            : loaded;
        return decide(trx, ctx, ready, input, cause, prepared);
      });
  return refuseOnLimit(response);
}

/** A match computed before the lock, with what it was computed for (matchKey). */
interface PreparedMatch {
  key: string;
  match: InstantMatch;
  /** The verification it was computed on, with its row version, when one change can apply it (see above). */
  read?: Loaded;
}

/**
 * The instant match of the submission as the verification is now, read without a lock: undefined when the
 * locked transaction will not decide a match anyway (a retry, an expired or finished verification, another
 * step, a token that does not verify), so that it answers as it always did.
 */
async function prepareMatch(
  ctx: AppContext,
  input: PersonalInfoSubmission,
  verificationId: string,
  militaryStatus: MilitaryStatus | undefined,
  budgetEndsAt: number,
): Promise<PreparedMatch | undefined> {
  const record = isVerificationId(verificationId)
    ? await findVerificationVersion(ctx.db, verificationId)
    : undefined;
  if (!record) return undefined;
  if (input.requestId && record.lastRequestId === input.requestId) return undefined;
  if (isFinal(record.currentStep) || record.expiresAt <= ctx.now()) return undefined;
  const program = await requireProgram(ctx, record.programId);
  const chosen = militaryStatus && record.currentStep === 'collectMilitaryStatus';
  const step = chosen ? nextStepForMilitaryStatus(militaryStatus) : record.currentStep;
  const type = subjectTypeOfStep(step);
  if (!type || !acceptsSubmission(step, input.step, segmentOf(program))) return undefined;
  let submitted: SubjectInput;
  try {
    submitted =
      'token' in input.submitted
        ? subjectFromJson(type, await checkSubjectToken(ctx, program, input.submitted.token, input.requestId))
        : input.submitted.subject;
  } catch {
    return undefined; // The locked transaction refuses it as it always did.
  }
  const before = chosen ? (subSegmentOfStatus(militaryStatus) ?? null) : record.subSegment;
  const subject = subjectOf(ctx, record, type, input, submitted);
  const subSegment = subSegmentAfter(program, subject, before);
  const match = await instantMatch(ctx, program, type, subject, { budgetEndsAt, subSegment });
  const key = matchKey(ctx, program, type, step, subject, subSegment);
  // Choosing the military status first is a change of its own: two writes, only under the lock.
  return { key, match, read: chosen ? undefined : { record, program } };
}

/** What a match depends on: a prepared match whose key differs from the locked state's is discarded. */
function matchKey(
  ctx: AppContext,
  program: Program,
  type: SubjectType,
  step: string,
  subject: Subject,
  subSegment: string,
): string {
  const { mode, segment, subSegments, minAge, maxAge, instantSources, httpSource } = program;
  const settings = [mode, segment, subSegments, minAge, maxAge, instantSources, httpSource?.url];
  return JSON.stringify([type, step, subSegment, utcToday(ctx.now()), settings, subject]);
}

/**
 * The normalised subject of a submission: the generic step completes it with the stored person. A customer
 * number the type does not take (a gRPC caller may set any field) is dropped: the list match must not use it.
 */
function subjectOf(
  ctx: AppContext,
  record: VerificationRecord,
  type: SubjectType,
  input: PersonalInfoSubmission,
  submitted: SubjectInput,
): Subject {
  const stored = openPerson(ctx, record.id, record.person);
  const merged: SubjectInput =
    isGeneric(input.step) && stored ? { ...(stored as SubjectInput), ...dropEmpty(submitted) } : submitted;
  const subject = normalizeSubject(merged);
  return {
    ...subject,
    memberId: hasKey(type, 'memberId') ? subject.memberId : '',
    employeeId: hasKey(type, 'employeeId') ? subject.employeeId : '',
    organizationEmail: hasKey(type, 'organizationEmail') ? subject.organizationEmail : '',
  };
}

/** The sub-segment the verification ends up in with this subject (its status), else the one it is in. */
function subSegmentAfter(program: Program, subject: Subject, current: string | null): string {
  const chosen = subSegmentOfStatuses(
    segmentOf(program),
    subject.status ? [subject.status] : subject.statuses,
    program.subSegments,
  );
  return chosen ?? current ?? '';
}

/**
 * The program path shape (and POST /verification/marketplace) refuses, before it starts anything, what could
 * never be taken on the new verification: a step other than the segment's first collect step, a subject
 * token that does not verify, that another request already used, or whose payload has keys the form does
 * not take.
 * Nothing is stored for such a request. A military program starts on collectMilitaryStatus, which a single
 * request cannot answer: its active or inactive form stands for the status it implies (the military status
 * the verification then records).
 */
async function preflight(
  ctx: AppContext,
  input: PersonalInfoSubmission,
): Promise<MilitaryStatus | undefined> {
  const program = await requireProgram(ctx, input.programId);
  // Before anything about the request is judged: a caller the program does not admit learns nothing more.
  assertMayCreate(program, input.callerAccountId);
  const segment = segmentOf(program);
  const first = firstStep(segment);
  const militaryStatus =
    segment === 'military' ? impliedMilitaryStatus(input.step, program.subSegments) : undefined;
  const fits =
    militaryStatus || (subjectTypeOfStep(first) && (isGeneric(input.step) || input.step === first));
  if (!fits)
    throw invalidArgument(`A verification of this program starts on step ${first}, not ${input.step}`, {
      errorIds: ['invalidStep'],
    });
  if ('token' in input.submitted) {
    const payload = await checkSubjectToken(ctx, program, input.submitted.token, input.requestId);
    // The payload must also be a body of the form the new verification starts on (only its keys).
    const type = subjectTypeOfStep(first);
    if (type) subjectFromJson(type, payload);
  }
  return militaryStatus;
}

/** collectMilitaryStatus answered for the program shape, as submitMilitaryStatus would with the status. */
async function chooseMilitaryStatus(
  trx: Transaction,
  ctx: AppContext,
  { record, program }: Loaded,
  status: MilitaryStatus,
  requestId: string | undefined,
): Promise<Loaded> {
  const change = {
    cause: { trigger: 'submitMilitaryStatus' as const, requestId },
    step: nextStepForMilitaryStatus(status),
    subSegment: subSegmentOfStatus(status) ?? null,
  };
  return { record: await applyChangeToRecord(trx, ctx, record, program, change), program };
}

async function decide(
  trx: Transaction,
  ctx: AppContext,
  { record, program }: Loaded,
  input: PersonalInfoSubmission,
  cause: Cause,
  prepared: PreparedMatch | undefined,
): Promise<VerificationAnswer> {
  const type = subjectTypeOfStep(record.currentStep);
  // The generic step and the marketplace token stand for whichever collect step the verification is on.
  if (!type || !acceptsSubmission(record.currentStep, input.step, segmentOf(program)))
    return wrongStep(record);
  const submitted =
    'token' in input.submitted
      ? subjectFromJson(
          type,
          await useSubjectToken(trx, ctx, program, input.submitted.token, cause.requestId),
        )
      : input.submitted.subject;

  // The generic step completes the submission with what this verification already knows of the person.
  const subject = subjectOf(ctx, record, type, input, submitted);
  // A valid locale of the body is the verification's from this answer on, whatever the answer (a form with
  // mistakes included: the person reads those in it); an invalid one is refused with the form. Forms that do
  // not take the clients' fields (Student) have none, whatever a caller sent.
  const locale = hasKey(type, 'locale') && subject.locale ? canonicalLocale(subject.locale) : undefined;
  const localeField: Partial<VerificationRecord> = locale ? { locale } : {};
  const key = matchKey(
    ctx,
    program,
    type,
    record.currentStep,
    subject,
    subSegmentAfter(program, subject, record.subSegment),
  );
  // Computed before the lock for this very state, or else now, without the sources: a result computed for a
  // state that changed meanwhile is discarded, and no source is asked while the row is locked.
  const match = prepared?.key === key ? prepared.match : await instantMatch(ctx, program, type, subject);
  if (match.kind === 'refused')
    return applyChange(trx, ctx, record, program, {
      cause,
      step: record.currentStep,
      errorIds: match.errorIds,
      systemErrorMessage: match.systemErrorMessage,
      // An invalid form never reached the match; an organization the program refuses did.
      fields: { ...localeField, ...(match.matched ? oneMoreAttempt(record) : {}) },
    });

  const { organization, decision, method, attempts } = match;
  const { metadata } = subject;
  // The locale is the verification's (a column), not the person's.
  const person: StoredPerson = {
    ...subject,
    organization,
    locale: undefined,
    externalUserId: hasKey(type, 'externalUserId') ? subject.externalUserId : '',
  };
  const emailHash = ctx.person.lookupHash(normalizedEmail(subject.email));
  const identity = subject.birthDate
    ? ctx.person.lookupHash(normalizedIdentity(subject.firstName, subject.lastName, subject.birthDate))
    : null;
  const storesMetadata = Object.keys(metadata).length > 0;
  const fields: Partial<VerificationRecord> = {
    person: sealPerson(ctx, record.id, { ...person, metadata: undefined }),
    // The form's metadata becomes the verification's (GET/PUT metadata, details.personInfo.metadata).
    ...(storesMetadata ? { metadata: sealMetadata(ctx, record.id, metadata) } : {}),
    personEmailHash: emailHash,
    personIdentityHash: identity,
    organizationId: organization ? organization.id : null,
    organizationName: organization ? organization.name : null,
    country: subject.country || null,
    ...localeField,
  };
  const chosen = subSegmentOfStatuses(
    segmentOf(program),
    subject.status ? [subject.status] : subject.statuses,
    program.subSegments,
  );
  if (chosen) fields.subSegment = chosen;

  // Whatever the decision: a person at the limit goes no further (not to documents or sso either). A success
  // checks again in succeed(), under the locks this transaction already holds.
  const limited = await limitReached(trx, ctx, program, record.id, {
    personEmailHash: emailHash,
    personIdentityHash: identity,
  });
  // The limit ends the verification with the fields; a recoverable decision keeps the step and stores none.
  if (storesMetadata && (limited || decision.kind !== 'recoverable'))
    await metadataChanged(trx, ctx, record, metadata);
  if (limited)
    return endOnLimit(trx, ctx, record, program, cause, { ...fields, ...oneMoreAttempt(record, attempts) });

  return applyOutcome(trx, ctx, record, program, decision, cause, fields, { method, attempts });
}

/** The count of instant-match attempts (instantMatchAttempts of the response) with `more` (every source call). */
const oneMoreAttempt = (
  record: VerificationRecord,
  more = 1,
): Pick<VerificationRecord, 'instantMatchAttempts'> => ({
  instantMatchAttempts: record.instantMatchAttempts + more,
});

/** Who decided an instant match and how many attempts it made (app/instant-match.ts). */
export interface MatchMethod {
  method: 'INSTANT' | SourceMethod;
  attempts: number;
}

/**
 * Turns the domain's decision on an instant match (a personal-info form, a social security number) into the
 * next step; a success goes through succeed() (the person limit, then the reward code). Every decision,
 * whatever it leads to, counts as one instant-match attempt.
 */
export async function applyOutcome(
  trx: Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  decision: Outcome,
  cause: Cause,
  personFields: Partial<VerificationRecord> = {},
  { method, attempts }: MatchMethod = { method: 'INSTANT', attempts: 1 },
): Promise<VerificationAnswer> {
  const fields = { ...personFields, ...oneMoreAttempt(record, attempts) };
  switch (decision.kind) {
    case 'success':
      return succeed(trx, ctx, record, program, { cause, verificationMethod: method, fields });
    case 'docUpload':
      return applyChange(trx, ctx, record, program, {
        cause,
        step: 'docUpload',
        fields,
      });
    case 'error':
      return applyChange(trx, ctx, record, program, {
        cause,
        step: 'error',
        errorIds: decision.errorIds,
        systemErrorMessage: decision.systemErrorMessage,
        fields,
      });
    case 'recoverable':
      // The step is kept and the person's data is not: only the attempt (and the body's locale) is recorded.
      return applyChange(trx, ctx, record, program, {
        cause,
        step: record.currentStep,
        errorIds: decision.errorIds,
        fields: {
          ...(personFields.locale ? { locale: personFields.locale } : {}),
          ...oneMoreAttempt(record, attempts),
        },
      });
    case 'sso':
      return applyChange(trx, ctx, record, program, { cause, step: 'sso', fields });
    case 'emailLoop': {
      // The person (with the address the code goes to) is stored by this change, the code with it.
      const response = await applyChange(trx, ctx, record, program, { cause, step: 'emailLoop', fields });
      await issueEmailLoopCode(trx, ctx, record);
      return response;
    }
    case 'ssn':
      return applyChange(trx, ctx, record, program, { cause, step: 'collectSocialSecurityNumber', fields });
  }
}

function dropEmpty(subject: SubjectInput): Partial<SubjectInput> {
  return Object.fromEntries(
    Object.entries(subject).filter(
      ([, v]) => v !== '' && v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0),
    ),
  ) as Partial<SubjectInput>;
}
