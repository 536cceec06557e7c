import type { ErrorId } from '@eligo/vocabulary';
import {
  collectStepOf,
  decideSubmission,
  invalidRequestMessage,
  metadataProblems,
  metadataRequestProblem,
  utcToday,
  validateSubject,
  type Outcome,
  type Subject,
  type SubjectType,
} from '../domain';
import { runInstantSources, type SourceMethod } from '../domain/instant-sources';
import { emailAtDomains } from '../domain/email-loop';
import type { AppContext } from './context';
import type { Program } from '../domain/program';
import { isTestMode, segmentOf } from './programs';

export interface AcceptedOrganization {
  id: number;
  name: string;
}

/**
 * The instant match of a subject: refused with the errorIds of the form (with what is wrong when it is the
 * integrator's mistake, invalidRequest), or with invalidOrganization once the match has begun (`matched`:
 * the form was valid and the organization was looked up); or decided with the organization the program
 * accepted (undefined when the subject type names none).
 */
export type InstantMatch =
  | { kind: 'refused'; errorIds: ErrorId[]; systemErrorMessage?: string; matched: boolean }
  | {
      kind: 'decided';
      decision: Outcome;
      organization: AcceptedOrganization | undefined;
      /** The verificationMethod of a success: a source's, or INSTANT for the built-in decision. */
      method: 'INSTANT' | SourceMethod;
      /** Instant-match attempts this match made: the sources called, at least 1 (the built-in decision). */
      attempts: number;
    };

/** When and for which sub-segment the program's instant-match sources may be asked; unset: they are not. */
export interface SourcesAllowed {
  /** Epoch ms: the submission's budget for sources ends then (app/sources/sources.ts budgetMs). */
  budgetEndsAt: number;
  subSegment: string;
}

/**
 * Validates a normalised subject of the type, checks its organization with the organizations service and
 * decides it by the program as it is now. A submission and a re-verification both go through here, so a
 * re-verification answers what a submission of the same person would today.
 */
export async function instantMatch(
  ctx: AppContext,
  program: Program,
  type: SubjectType,
  subject: Subject,
  sources?: SourcesAllowed,
): Promise<InstantMatch> {
  const today = utcToday(ctx.now());
  const validation = { today, programSubSegments: program.subSegments };
  const problems: ErrorId[] = [
    ...validateSubject(type, subject, validation),
    ...metadataProblems(subject.metadata),
  ];
  if (problems.length > 0) {
    const messages = [
      invalidRequestMessage(type, subject, validation),
      metadataRequestProblem(subject.metadata),
    ].filter((m): m is string => m !== undefined);
    return {
      kind: 'refused',
      // A metadata invalidRequest may repeat the form's.
      errorIds: [...new Set(problems)],
      systemErrorMessage: messages.length > 0 ? messages.join('; ') : undefined,
      matched: false,
    };
  }
  // The organizations service is asked only about a form that is otherwise valid.
  const checked = await checkOrganization(ctx, program, subject);
  if (checked === 'invalid') return { kind: 'refused', errorIds: ['invalidOrganization'], matched: true };
  const organization = checked && { id: checked.id, name: checked.name };
  const mode = isTestMode(program) ? 'test' : 'live';
  const decision = decideSubmission({
    mode,
    segment: segmentOf(program),
    step: collectStepOf(type),
    subject,
    program: { minAge: program.minAge, maxAge: program.maxAge },
    today,
  });
  const decided = {
    kind: 'decided' as const,
    decision,
    organization,
    method: 'INSTANT' as const,
    attempts: 1,
  };
  // Test mode keeps its triggers; the sources stand in only where live mode could not decide by itself.
  const undecided = decision.kind === 'docUpload' || decision.kind === 'ssn';
  if (mode !== 'live' || !undecided || !sources) return decided;
  const asked = await askSources(ctx, program, subject, organization, sources);
  if (asked.decidedBy)
    return { ...decided, decision: { kind: 'success' }, method: asked.decidedBy, attempts: asked.attempts };
  return {
    ...decided,
    decision: await insteadOfDocuments(ctx, program, subject, checked, decision),
    attempts: asked.attempts,
  };
}

/**
 * No source knew the person: the organization can still prove it, by signing the person in with its OpenID
 * provider when it has single sign-on, else by a code mailed to an address at its domains when the program
 * offers the email loop. Otherwise the decision stands (documents, or the social security number).
 */
async function insteadOfDocuments(
  ctx: AppContext,
  program: Program,
  subject: Subject,
  organization: (AcceptedOrganization & { domains: readonly string[] }) | undefined,
  decision: Outcome,
): Promise<Outcome> {
  if (decision.kind !== 'docUpload' || !organization) return decision;
  if (await ctx.organizations.hasSso(organization.id)) return { kind: 'sso' };
  const address = subject.organizationEmail || subject.email;
  if (program.emailLoop && emailAtDomains(address, organization.domains)) return { kind: 'emailLoop' };
  return decision;
}

/** The program's sources for the sub-segment, asked in order within the budget (none: no attempt). */
async function askSources(
  ctx: AppContext,
  program: Program,
  subject: Subject,
  organization: AcceptedOrganization | undefined,
  sources: SourcesAllowed,
): Promise<{ decidedBy?: SourceMethod; attempts: number }> {
  const guarded = ctx.sources.forProgram(program, sources.subSegment);
  if (guarded.length === 0) return { attempts: 1 };
  const mode = 'live';
  const run = await runInstantSources(
    guarded,
    {
      // The organization as the catalog accepted it, not as typed.
      subject: organization ? { ...subject, organization } : subject,
      program: {
        programId: program.programId,
        segment: program.segment,
        subSegment: sources.subSegment,
        mode,
      },
    },
    { deadlineMs: ctx.sources.deadlineMs, budgetEndsAt: sources.budgetEndsAt, now: () => Date.now() },
  );
  ctx.sources.logRun(program, run);
  const attempts = Math.max(1, run.attempts);
  return run.decidedBy ? { decidedBy: run.decidedBy, attempts } : { attempts };
}

/**
 * The organization of a subject type that has one, accepted by the program (by id, the student form's
 * universityId, else by exact name). undefined when the type has none; 'invalid' when unknown or refused.
 */
async function checkOrganization(
  ctx: AppContext,
  program: Program,
  subject: Subject,
): Promise<(AcceptedOrganization & { domains: readonly string[] }) | 'invalid' | undefined> {
  const id = subject.organization?.id || subject.universityId || 0;
  const name = subject.organization?.name ?? '';
  if (id === 0 && !name) return undefined;
  const check = await ctx.organizations.check(program.programId, { id, name });
  return check.eligibility === 'eligible'
    ? { id: check.organization.id, name: check.organization.name, domains: check.organization.domains }
    : 'invalid';
}
