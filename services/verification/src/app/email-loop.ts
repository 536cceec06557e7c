import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Transaction } from '@eligo/runtime';
import {
  EMAIL_LOOP_RULES,
  isEmailTokenShape,
  judgeEmailToken,
  normalizeEmailToken,
  resendRefusal,
} from '../domain/email-loop';
import { isVerificationId, newVerificationId } from '../domain/ids';
import type { Program } from '../domain/program';
import type { VerificationAnswer } from '../domain/answer';
import * as events from '../events/publish';
import {
  countWrongCode,
  findEmailLoop,
  forgetSealedCode,
  saveEmailLoop,
  type EmailLoopRecord,
} from '../repository/email-loops.repository';
import { findVerification, type VerificationRecord } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { takeStep } from './load';
import { openPerson } from './person';
import { succeed } from './person-limit';
import { refuseOnLimit } from './person-limit';
import { applyChange, type Cause } from './transition';
import { resourceExhausted } from '@eligo/runtime';

/**
 * The email loop (issue 22): the verification waits on step emailLoop while a one-time code goes to the
 * person's address at the organization; the right code is a success (verificationMethod EMAIL_LOOP). Only a
 * keyed hash of the code is kept to check it; the notifier gets the code itself once per send through
 * TakeEmailLoopMessage, from a copy sealed for it and cleared when the code stops being current.
 */

const sealContext = (verificationId: string, sendId: string) => `${verificationId}:email-loop:${sendId}`;

function codeHash(ctx: AppContext, verificationId: string, sendId: string, code: string): Buffer {
  return ctx.person.lookupHash(`email-loop:${verificationId}:${sendId}:${code}`);
}

function newCode(): string {
  return String(randomInt(0, 10 ** EMAIL_LOOP_RULES.codeDigits)).padStart(EMAIL_LOOP_RULES.codeDigits, '0');
}

/**
 * A new current code for the verification (its first, or a resend replacing the one before), and the event
 * that has the notifier mail it, in the caller's transaction: the mail cannot be lost to a crash.
 */
export async function issueEmailLoopCode(
  trx: Transaction,
  ctx: AppContext,
  record: Pick<VerificationRecord, 'id' | 'programId' | 'testMode'>,
  previous?: EmailLoopRecord,
): Promise<void> {
  const now = ctx.now();
  const sendId = newVerificationId();
  const code = newCode();
  await saveEmailLoop(trx, {
    verificationId: record.id,
    sendId,
    codeHash: codeHash(ctx, record.id, sendId, code),
    codeSealed: ctx.person.encrypt(code, sealContext(record.id, sendId)),
    expiresAt: new Date(now.getTime() + EMAIL_LOOP_RULES.codeTtlMs),
    sends: (previous?.sends ?? 0) + 1,
    lastSentAt: now,
    wrongCodes: previous?.wrongCodes ?? 0,
  });
  await events.emailLoopCodeIssued(trx, ctx.schema, {
    verificationId: record.id,
    programId: record.programId,
    sendId,
    testMode: record.testMode,
    occurredAt: now,
  });
}

function matches(ctx: AppContext, loop: EmailLoopRecord, verificationId: string, token: string): boolean {
  const given = codeHash(ctx, verificationId, loop.sendId, token);
  return given.length === loop.codeHash.length && timingSafeEqual(given, loop.codeHash);
}

/** POST step/emailLoop {emailToken}. */
export async function submitEmailToken(
  ctx: AppContext,
  input: { verificationId: string; emailToken: string; requestId?: string },
): Promise<VerificationAnswer> {
  const response = await takeStep(ctx, input, 'submitEmailToken', async (trx, { record, program }, cause) => {
    const loop = await findEmailLoop(trx, record.id);
    const token = normalizeEmailToken(input.emailToken);
    if (!loop || !isEmailTokenShape(token))
      return keep(trx, ctx, record, program, cause, 'invalidEmailLoopToken');
    const verdict = judgeEmailToken(loop, ctx.now(), matches(ctx, loop, record.id, token));
    switch (verdict) {
      case 'accepted':
        await forgetSealedCode(trx, record.id);
        return succeed(trx, ctx, record, program, { cause, verificationMethod: 'EMAIL_LOOP' });
      case 'expired':
        return keep(trx, ctx, record, program, cause, 'expiredEmailLoopToken');
      case 'wrong':
        await countWrongCode(trx, record.id);
        return keep(trx, ctx, record, program, cause, 'invalidEmailLoopToken');
      case 'tooManyWrong':
        await countWrongCode(trx, record.id);
        await forgetSealedCode(trx, record.id);
        return applyChange(trx, ctx, record, program, {
          cause,
          step: 'docUpload',
          errorIds: ['invalidEmailLoopToken'],
          systemErrorMessage: `${EMAIL_LOOP_RULES.maxWrongCodes} wrong codes: documents are needed instead`,
        });
    }
  });
  return refuseOnLimit(response);
}

/** A recoverable refusal: the step stays, with the errorId (and whether a new code may be asked for). */
function keep(
  trx: Transaction,
  ctx: AppContext,
  record: VerificationRecord,
  program: Program,
  cause: Cause,
  errorId: 'invalidEmailLoopToken' | 'expiredEmailLoopToken',
): Promise<VerificationAnswer> {
  return applyChange(trx, ctx, record, program, { cause, step: record.currentStep, errorIds: [errorId] });
}

/**
 * POST step/emailLoop/retryEmail: a new code replaces the current one. Refused (FAILED_PRECONDITION, nothing
 * changed) within the cooldown or past the cap.
 */
export async function resendEmailToken(
  ctx: AppContext,
  input: { verificationId: string },
): Promise<VerificationAnswer> {
  return takeStep(ctx, input, 'resendEmailToken', async (trx, { record, program }, cause) => {
    const loop = await findEmailLoop(trx, record.id);
    const refusal = loop ? resendRefusal(loop, ctx.now()) : undefined;
    if (refusal)
      throw resourceExhausted(
        refusal === 'emailLoopResendTooSoon'
          ? `A code was sent less than ${EMAIL_LOOP_RULES.resendCooldownMs / 1000} s ago`
          : `At most ${EMAIL_LOOP_RULES.maxSends} codes are sent per verification`,
        { errorIds: [refusal] },
      );
    await issueEmailLoopCode(trx, ctx, record, loop);
    return applyChange(trx, ctx, record, program, { cause, step: record.currentStep });
  });
}

/** The answer with canResendEmailLoop as it is now, on step emailLoop (one indexed read); else as it is. */
export async function withEmailLoop(
  ctx: AppContext,
  answer: VerificationAnswer,
): Promise<VerificationAnswer> {
  if (answer.currentStep !== 'emailLoop') return answer;
  const loop = await findEmailLoop(ctx.db, answer.verificationId);
  return {
    ...answer,
    canResendEmailLoop: loop !== undefined && resendRefusal(loop, ctx.now()) === undefined,
  };
}

/**
 * TakeEmailLoopMessage: what the notifier mails for a send, while that send's code is current (the
 * verification still on emailLoop, not replaced by a resend, not used, not expired). The address is the
 * person's as stored with the verification.
 */
export async function takeEmailLoopMessage(
  ctx: AppContext,
  input: { verificationId: string; sendId: string },
): Promise<
  | { found: false }
  | { found: true; email: string; code: string; locale: string; expiresAt: Date; programId: string }
> {
  if (!isVerificationId(input.verificationId)) return { found: false };
  const [record, loop] = await Promise.all([
    findVerification(ctx.db, input.verificationId),
    findEmailLoop(ctx.db, input.verificationId),
  ]);
  if (
    !record ||
    !loop ||
    record.currentStep !== 'emailLoop' ||
    loop.sendId !== input.sendId ||
    !loop.codeSealed ||
    loop.expiresAt <= ctx.now()
  )
    return { found: false };
  // The address at the organization when the person gave one: the loop was offered for it.
  const person = openPerson(ctx, record.id, record.person);
  const email = (person?.organizationEmail as string | undefined) || person?.email || '';
  if (!email) return { found: false };
  return {
    found: true,
    email,
    code: ctx.person.decrypt(loop.codeSealed, sealContext(record.id, loop.sendId)),
    locale: record.locale ?? '',
    expiresAt: loop.expiresAt,
    programId: record.programId,
  };
}
