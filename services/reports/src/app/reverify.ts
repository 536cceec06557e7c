import { randomUUID } from 'node:crypto';
import { invalidArgument, notFound } from '@eligo/runtime';
import {
  claimItems,
  completeItem,
  findBatch,
  insertBatch,
  releaseItem,
  type BatchRecord,
  type ClaimedItem,
  type ItemResult,
} from '../repository/batches.repository';
import type { AppContext } from './context';
import { noBatch } from './errors';
import { isId, newId } from '../domain/ids';
import type { ReverifyAnswer } from '../domain/reverify-answer';

const invalid = (message: string) => invalidArgument(message, { errorIds: ['invalidRequest'] });

/**
 * Queues a re-verification of verifications of one of the account's programs. Ids are kept once each, in
 * the order given; an id that is not a verification of that program is processed too and reported as
 * NOT_FOUND, so the batch's report accounts for every id asked for.
 */
export async function startReverification(
  app: AppContext,
  input: { accountId: string; programId: string; verificationIds: readonly string[] },
): Promise<BatchRecord> {
  const ids = [...new Set(input.verificationIds.map((id) => id.trim()))];
  if (ids.length === 0) throw invalid('verificationIds must not be empty');
  if (ids.length > app.reverify.maxIds) throw invalid(`verificationIds: at most ${app.reverify.maxIds}`);
  const malformed = ids.find((id) => !isId(id));
  if (malformed !== undefined) throw invalid(`Invalid verification id: ${malformed.slice(0, 40)}`);
  if (!isId(input.programId) || !(await app.programs.isProgramOf(input.accountId, input.programId)))
    throw notFound('Program not found', { errorIds: ['noProgram'] });
  return app.db.transaction((trx) =>
    insertBatch(trx, app.schema, {
      id: newId(),
      accountId: input.accountId,
      programId: input.programId,
      verificationIds: ids,
    }),
  );
}

export async function getReverification(
  app: AppContext,
  input: { accountId: string; batchId: string },
): Promise<BatchRecord> {
  const batch = isId(input.batchId)
    ? await findBatch(app.db, app.schema, input.accountId, input.batchId)
    : undefined;
  if (!batch) throw noBatch();
  return batch;
}

/** An item's result from the instant match's answer; none means the verification is not the batch's. */
export function itemResult(answer: ReverifyAnswer | undefined): ItemResult {
  if (!answer) return { outcome: 'NOT_FOUND', errorIds: [], currentStep: null, organizationId: null };
  return {
    outcome: answer.outcome,
    errorIds: answer.errorIds,
    currentStep: answer.currentStep,
    organizationId: answer.organizationId,
  };
}

/**
 * One pass of the re-verification job: claims pending items (a lease each, so a process killed mid-batch
 * leaves them to the next pass once the lease lapses), runs each through the verification service's instant
 * match, `concurrency` at a time, and records each result with its count in the batch. The instant match
 * changes nothing, so an item done twice (a result lost with its process) does no harm, and it is counted
 * once. Answers true when it found work (there may be more).
 */
export async function reverifyPendingItems(app: AppContext): Promise<boolean> {
  const lease = randomUUID();
  const items = await claimItems(app.db, app.schema, lease, app.leaseMs, app.reverify.concurrency * 4);
  if (items.length === 0) return false;
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) await reverifyItem(app, item, lease);
  };
  await Promise.all(Array.from({ length: Math.min(app.reverify.concurrency, items.length) }, worker));
  return true;
}

/**
 * Tries per item: with the backoff below, about 20 minutes of a verification service that does not answer
 * before the item ends FAILED (and its batch can complete).
 */
export const MAX_ITEM_ATTEMPTS = 8;
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 600_000;

async function reverifyItem(app: AppContext, item: ClaimedItem, lease: string): Promise<void> {
  let result: ItemResult;
  try {
    result = itemResult(await app.verification.reverify(item.accountId, item.programId, item.verificationId));
  } catch (err) {
    const last = item.attempts >= MAX_ITEM_ATTEMPTS;
    app.logger.warn(
      { err, batchId: item.batchId, position: item.position, attempt: item.attempts, last },
      're-verification of an item failed',
    );
    if (!last) {
      const retryInMs = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (item.attempts - 1));
      await releaseItem(app.db, app.schema, item, lease, retryInMs).catch(() => undefined);
      return;
    }
    result = {
      outcome: 'FAILED',
      errorIds: ['internalServerError'],
      currentStep: null,
      organizationId: null,
    };
  }
  await completeItem(app.db, app.schema, item, lease, result);
}
