import { invalidArgument, notFound } from '@eligo/runtime';
import {
  findLatestByAccountTrackingId,
  findVerification,
  type VerificationRecord,
} from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import { noVerification } from './load';

export type LocateKey =
  { verificationId: string } | { tracking: { accountId: string; trackingId: string } } | undefined;

export interface VerificationOwner {
  verificationId: string;
  accountId: string;
  programId: string;
  testMode: boolean;
}

/**
 * Who owns a verification, found by its id or by the account's tracking id (the most recent verification
 * with it, as GET by tracking id answers). NOT_FOUND noVerification when there is none. Read as stored.
 */
export async function locateVerification(ctx: AppContext, key: LocateKey): Promise<VerificationOwner> {
  if (!key)
    throw invalidArgument('A verification id or a tracking id is required', {
      errorIds: ['invalidRequest'],
    });
  const record = 'verificationId' in key ? await byId(ctx, key.verificationId) : await byTracking(ctx, key);
  return {
    verificationId: record.id,
    accountId: record.accountId,
    programId: record.programId,
    testMode: record.testMode,
  };
}

async function byId(ctx: AppContext, id: string): Promise<VerificationRecord> {
  const record = isVerificationId(id) ? await findVerification(ctx.db, id) : undefined;
  if (!record) throw noVerification(id);
  return record;
}

/** Stored tracking ids are trimmed and never empty (start.ts): an empty one names no verification. */
async function byTracking(
  ctx: AppContext,
  { tracking }: { tracking: { accountId: string; trackingId: string } },
): Promise<VerificationRecord> {
  const trackingId = tracking.trackingId.trim();
  const record =
    tracking.accountId && trackingId
      ? await findLatestByAccountTrackingId(ctx.db, tracking.accountId, trackingId)
      : undefined;
  if (!record)
    throw notFound('No verification of the account has this tracking id', {
      errorIds: ['noVerification'],
    });
  return record;
}
