import type { ProgramConfiguration, ProgramPatch } from './api';

/** The program settings the console edits, as form values, and the merge patch of what changed. */
export interface Draft {
  name: string;
  mode: 'test' | 'live';
  redirectUrl: string;
  rewardCode: string;
  maxRejections: string;
  estimatedReviewTime: string;
  maxReviewTime: string;
}

export const draftOf = (p: ProgramConfiguration): Draft => ({
  name: p.name,
  mode: p.mode,
  redirectUrl: p.redirectUrl ?? '',
  rewardCode: p.rewardCode ?? '',
  maxRejections: String(p.maxRejections),
  estimatedReviewTime: p.estimatedReviewTime ?? '',
  maxReviewTime: p.maxReviewTime ?? '',
});

/** The JSON merge patch of what changed: a field left as it was is not sent. */
export function patchOf(before: Draft, after: Draft): ProgramPatch {
  const patch: ProgramPatch = {};
  if (after.name.trim() !== before.name) patch.name = after.name.trim();
  if (after.mode !== before.mode) patch.mode = after.mode;
  if (after.redirectUrl.trim() !== before.redirectUrl) patch.redirectUrl = after.redirectUrl.trim() || null;
  if (after.rewardCode.trim() !== before.rewardCode) patch.rewardCode = after.rewardCode.trim() || null;
  if (after.maxRejections !== before.maxRejections) patch.maxRejections = Number(after.maxRejections);
  if (after.estimatedReviewTime !== before.estimatedReviewTime)
    patch.estimatedReviewTime = (after.estimatedReviewTime || null) as ProgramPatch['estimatedReviewTime'];
  if (after.maxReviewTime !== before.maxReviewTime)
    patch.maxReviewTime = (after.maxReviewTime || null) as ProgramPatch['maxReviewTime'];
  return patch;
}
