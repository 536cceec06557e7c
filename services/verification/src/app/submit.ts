import { invalidArgument, resourceExhausted, type Knex } from '@eligo/runtime';
import {
  decideSubmission,
  normalizeSubject,
  normalizedEmail,
  normalizedIdentity,
  collectStepOf,
  firstStep,
  metadataProblems,
  subjectTypeOfStep,
  validateSubject,
  type SubjectInput,
} from '../domain';
import * as events from '../events/publish';
import { countPersonSuccesses, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isFinalStep, loadLocked, wrongStep, type Loaded } from './load';
import { openPerson, sealMetadata, sealPerson, type StoredPerson } from './person';
import type { Program } from './ports';
import { isTestMode, requireProgram, segmentOf } from './programs';
import type { VerificationResponse } from './response';
import { rewardCodeFor } from './rewards';
import { startVerification } from './start';
import { subjectFromJson } from './subject-json';
import { subjectFromToken } from './subject-token';
import { applyChange } from './transition';

export interface PersonalInfoSubmission {
  verificationId: string;
  programId: string;
  trackingId: string;
  /** collect<Type>PersonalInfo, or the generic collectPersonalInfo, or collectMarketplaceToken. */
  step: string;
  submitted: SubmittedSubject;
}

/** The subject as fields, or as a compact JWS that carries them (verified with the program's key). */
export type SubmittedSubject = { subject: SubjectInput } | { token: string };

const DAY_MS = 86_400_000;

/**
 * A personal-info step: validated (recoverable errors keep the step), the organization checked with the
 * organizations service, the person limit applied, then the outcome decided by the domain. On the program
 * path shape the verification is started first, exactly as POST /verification would.
 */
export async function submitPersonalInfo(
  ctx: AppContext,
  input: PersonalInfoSubmission,
): Promise<VerificationResponse> {
  if (input.programId) await preflight(ctx, input);
  const verificationId = input.programId
    ? (await startVerification(ctx, { programId: input.programId, trackingId: input.trackingId }))
        .verificationId
    : input.verificationId;
  const outcome = await ctx.db.transaction(async (trx) => {
    const loaded = await loadLocked(trx, ctx, verificationId);
    if (loaded.expired) return { response: loaded.expired };
    return decide(trx, ctx, loaded, input);
  });
  if (outcome.limitExceeded)
    // Committed first: the verification ends in error (visible in history) and the caller gets 429.
    throw resourceExhausted('The person has reached the verification limit of the program', {
      errorIds: ['verificationLimitExceeded'],
      httpStatus: 429,
      body: 'ER',
    });
  return outcome.response;
}

/**
 * The program path shape refuses, before it starts anything, what could never be taken on the new
 * verification: a step other than the segment's first collect step, a subject token that does not verify.
 * Nothing is stored for such a request.
 */
async function preflight(ctx: AppContext, input: PersonalInfoSubmission): Promise<void> {
  const program = await requireProgram(ctx, input.programId);
  const first = firstStep(segmentOf(program));
  const generic = input.step === 'collectPersonalInfo' || input.step === 'collectMarketplaceToken';
  if (!subjectTypeOfStep(first) || (!generic && input.step !== first))
    throw invalidArgument(`A verification of this program starts on step ${first}, not ${input.step}`, {
      errorIds: ['invalidStep'],
      body: 'ER',
    });
  if ('token' in input.submitted) await subjectFromToken(program, input.submitted.token);
}

async function decide(
  trx: Knex.Transaction,
  ctx: AppContext,
  { record, program }: Loaded,
  input: PersonalInfoSubmission,
): Promise<{ response: VerificationResponse; limitExceeded?: boolean }> {
  const type = subjectTypeOfStep(record.currentStep);
  // The generic step and the marketplace token stand for whichever collect step the verification is on.
  const generic = input.step === 'collectPersonalInfo' || input.step === 'collectMarketplaceToken';
  if (isFinalStep(record.currentStep) || !type || (!generic && input.step !== record.currentStep))
    return { response: wrongStep(record) };
  const submitted =
    'token' in input.submitted
      ? subjectFromJson(type, await subjectFromToken(program, input.submitted.token))
      : input.submitted.subject;

  const stored = openPerson(ctx, record.id, record.person);
  // The generic step completes the submission with what this verification already knows of the person.
  const merged: SubjectInput =
    generic && stored ? { ...(stored as SubjectInput), ...dropEmpty(submitted) } : submitted;
  const subject = normalizeSubject(merged);
  const today = ctx.now().toISOString().slice(0, 10);
  const metadata = subject.metadata ?? {};
  const problems: string[] = [...validateSubject(type, subject, { today }), ...metadataProblems(metadata)];
  const checked = problems.length === 0 ? await checkOrganization(ctx, program, subject) : undefined;
  if (checked === 'invalid') problems.push('invalidOrganization');
  const organization = checked === 'invalid' ? undefined : checked;
  if (problems.length > 0)
    return {
      response: await applyChange(trx, ctx, record, program, {
        step: record.currentStep,
        errorIds: problems,
      }),
    };

  const person: StoredPerson = { ...subject, organization: organization || undefined };
  const emailHash = ctx.person.lookupHash(normalizedEmail(subject.email ?? ''));
  const identity = subject.birthDate
    ? ctx.person.lookupHash(
        normalizedIdentity(subject.firstName ?? '', subject.lastName ?? '', subject.birthDate),
      )
    : null;
  const fields: Partial<VerificationRecord> = {
    person: sealPerson(ctx, record.id, { ...person, metadata: undefined }),
    // The form's metadata becomes the verification's (GET/PUT metadata, details.personInfo.metadata).
    ...(Object.keys(metadata).length > 0 ? { metadata: sealMetadata(ctx, record.id, metadata) } : {}),
    personEmailHash: emailHash,
    personIdentityHash: identity,
    organizationId: organization ? organization.id : null,
    organizationName: organization ? organization.name : null,
    country: subject.country || null,
  };

  if (await limitReached(trx, ctx, program, record.id, emailHash, identity)) {
    const response = await applyChange(trx, ctx, record, program, {
      step: 'error',
      errorIds: ['verificationLimitExceeded'],
      systemErrorMessage: 'The person has reached the verification limit of the program',
      fields,
    });
    await events.limitExceeded(trx, ctx.schema, {
      verificationId: record.id,
      programId: record.programId,
      accountId: record.accountId,
      testMode: record.testMode,
      occurredAt: ctx.now(),
    });
    return { response, limitExceeded: true };
  }

  const decision = decideSubmission({
    mode: isTestMode(program) ? 'test' : 'live',
    segment: segmentOf(program),
    step: collectStepOf(type),
    subject,
    program: { minAge: program.minAge, maxAge: program.maxAge },
    today,
  });
  return { response: await applyOutcome(trx, ctx, record, program, decision, fields) };
}

type Decision = ReturnType<typeof decideSubmission>;

/** Turns the domain's decision into the next step (claiming the reward code of a success). */
export async function applyOutcome(
  trx: Knex.Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  decision: Decision,
  fields: Partial<VerificationRecord> = {},
): Promise<VerificationResponse> {
  switch (decision.kind) {
    case 'success':
      return applyChange(trx, ctx, record, program, {
        step: 'success',
        rewardCode: await rewardCodeFor(ctx, program, record.id),
        verificationMethod: 'INSTANT',
        fields,
      });
    case 'docUpload':
      return applyChange(trx, ctx, record, program, {
        step: 'docUpload',
        fields: { ...fields, instantMatchAttempts: record.instantMatchAttempts + 1 },
      });
    case 'error':
      return applyChange(trx, ctx, record, program, {
        step: 'error',
        errorIds: decision.errorIds,
        systemErrorMessage: decision.systemErrorMessage,
        fields,
      });
    case 'recoverable':
      return applyChange(trx, ctx, record, program, {
        step: record.currentStep,
        errorIds: decision.errorIds,
      });
    case 'sso':
      return applyChange(trx, ctx, record, program, { step: 'sso', fields });
    case 'ssn':
      return applyChange(trx, ctx, record, program, { step: 'collectSocialSecurityNumber', fields });
  }
}

function dropEmpty(subject: SubjectInput): Partial<SubjectInput> {
  return Object.fromEntries(
    Object.entries(subject).filter(
      ([, v]) => v !== '' && v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0),
    ),
  ) as Partial<SubjectInput>;
}

/**
 * The organization of a subject type that has one, accepted by the program (by id, the student form's
 * universityId, else by exact name). undefined when the type has none; 'invalid' when unknown or refused.
 */
async function checkOrganization(
  ctx: AppContext,
  program: Program,
  subject: SubjectInput,
): Promise<{ id: number; name: string } | 'invalid' | undefined> {
  const id = subject.organization?.id || subject.universityId || 0;
  const name = subject.organization?.name ?? '';
  if (id === 0 && !name) return undefined;
  const check = await ctx.organizations.check(program.programId, { id, name });
  return check.eligibility === 'eligible'
    ? { id: check.organization.id, name: check.organization.name }
    : 'invalid';
}

/**
 * Whether the person already has `quantity` successful verifications in the program within `days`. Two
 * submissions of one person are serialised by transaction-scoped advisory locks on their hashes, so that
 * they cannot both pass the limit.
 */
async function limitReached(
  trx: Knex.Transaction,
  ctx: AppContext,
  program: Program,
  verificationId: string,
  emailHash: Buffer,
  identityHash: Buffer | null,
): Promise<boolean> {
  const limit = program.verificationLimit;
  if (!limit || limit.quantity <= 0) return false;
  const keys = [emailHash, identityHash].filter((k): k is Buffer => k !== null).map((k) => k.toString('hex'));
  for (const key of keys.sort())
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${program.programId}:${key}`]);
  const since = new Date(ctx.now().getTime() - limit.days * DAY_MS);
  const count = await countPersonSuccesses(trx, {
    programId: program.programId,
    emailHash,
    identityHash,
    since,
    exceptId: verificationId,
  });
  return count >= limit.quantity;
}
