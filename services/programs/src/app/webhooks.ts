import { conflict, failedPrecondition } from '@eligo/runtime';
import { isId } from '../domain/ids';
import type { Program } from '../domain/program';
import { validateWebhook } from '../domain/program-validation';
import { newWebhookSigningSecret, type WebhookDelivery } from '../domain/webhook';
import * as events from '../events/publish';
import { findProgram, updateProgramWebhook, updateWebhookSecret } from '../repository/programs.repository';
import type { AppContext } from './context';
import { lockProgram, programNotFound, reread } from './program-access';
import type { ProgramWithSecret } from './programs';

/**
 * CreateWebhook: one webhook per program (ALREADY_EXISTS otherwise: delete, then create), with the optional
 * notifications it opts in to. The signing secret is generated here, stored encrypted and bound to the
 * program id, and shown in this reply only.
 */
export async function createWebhook(
  ctx: AppContext,
  request: { programId: string; accountId: string; callbackUri: string; notifications: readonly string[] },
): Promise<ProgramWithSecret> {
  return ctx.db.transaction(async (trx) => {
    const { program: current } = await lockProgram(trx, request.programId, request.accountId);
    const webhook = validateWebhook(request, ctx.webhookAllowCidrs);
    if (current.webhook)
      throw conflict('Program already has a webhook; delete it first', {
        errorIds: ['webhookAlreadyExists'],
      });
    const secret = newWebhookSigningSecret();
    const encryptedSecret = ctx.webhookSecrets.encrypt(secret, current.id);
    await updateProgramWebhook(trx, current.id, { ...webhook, encryptedSecret });
    const { program } = await reread(trx, current.id);
    // Snapshot first, then the specific event, as on create and update.
    await events.programUpdated(trx, ctx.schema, program);
    await events.webhookConfigured(trx, ctx.schema, program);
    return { program, webhookSigningSecret: secret };
  });
}

/**
 * DeleteWebhook: removes the webhook with its secret and notifications. Removing a webhook that is not there
 * changes nothing (no event) and returns the program.
 */
export async function deleteWebhook(ctx: AppContext, programId: string, accountId: string): Promise<Program> {
  return ctx.db.transaction(async (trx) => {
    const { program: current } = await lockProgram(trx, programId, accountId);
    if (!current.webhook) return current;
    await updateProgramWebhook(trx, current.id, null);
    const { program } = await reread(trx, current.id);
    await events.programUpdated(trx, ctx.schema, program);
    await events.webhookRemoved(trx, ctx.schema, program);
    return program;
  });
}

/**
 * RotateWebhookSigningSecret: a new signing secret for the program's webhook, generated, encrypted and shown
 * once as on CreateWebhook; the callback URI, notifications and created_at stay. The old secret is gone with
 * this commit (no grace period: the notifier signs with the one secret GetWebhookDelivery gives). Events as
 * on CreateWebhook: the ProgramUpdated snapshot (updated_at moved), then WebhookConfigured, on which the
 * notifier drops the webhook settings it cached.
 */
export async function rotateWebhookSigningSecret(
  ctx: AppContext,
  programId: string,
  accountId: string,
): Promise<ProgramWithSecret> {
  return ctx.db.transaction(async (trx) => {
    const { program: current } = await lockProgram(trx, programId, accountId);
    if (!current.webhook)
      throw failedPrecondition('Program has no webhook; create one first', { reason: 'noWebhook' });
    const secret = newWebhookSigningSecret();
    await updateWebhookSecret(trx, current.id, ctx.webhookSecrets.encrypt(secret, current.id));
    const { program } = await reread(trx, current.id);
    await events.programUpdated(trx, ctx.schema, program);
    await events.webhookConfigured(trx, ctx.schema, program);
    return { program, webhookSigningSecret: secret };
  });
}

/**
 * GetWebhookDelivery (notifier, service-to-service): where to post, the key to sign with, the opted-in
 * notifications and since when the webhook exists, with the program's owner and mode.
 */
export async function getWebhookDelivery(ctx: AppContext, programId: string): Promise<WebhookDelivery> {
  if (!isId(programId)) throw programNotFound();
  const stored = await findProgram(ctx.db, programId);
  if (!stored) throw programNotFound();
  const { program, webhookSecret } = stored;
  const owner = { accountId: program.accountId, mode: program.mode };
  if (!program.webhook || !webhookSecret) return { ...owner, webhook: null };
  return {
    ...owner,
    webhook: { ...program.webhook, signingSecret: ctx.webhookSecrets.decrypt(webhookSecret, program.id) },
  };
}
