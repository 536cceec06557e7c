import { newId } from '../domain/ids';
import { programListQuery } from '../domain/lists';
import { pageOf } from '../domain/page';
import type { Program, ProgramMode, ProgramSummary } from '../domain/program';
import {
  planUpdate,
  settingsForCreate,
  type ProgramInput,
  type SourceSecretChange,
} from '../domain/program-changes';
import { mergeTheme, type Theme } from '../domain/theme';
import { newWebhookSigningSecret } from '../domain/webhook';
import * as events from '../events/publish';
import {
  insertProgram,
  listProgramSummaries,
  updateProgram as saveProgram,
  type WebhookColumns,
} from '../repository/programs.repository';
import { requireAccount } from './accounts';
import type { AppContext } from './context';
import { lockProgram, readProgram, reread } from './program-access';

export interface ProgramWithSecret {
  program: Program;
  /** Set when the call configured a webhook: its signing secret, shown only in this reply. */
  webhookSigningSecret: string;
}

/** CreateProgram: validated settings with defaults, an optional webhook, and ProgramCreated, in one commit. */
export async function createProgram(ctx: AppContext, input: ProgramInput): Promise<ProgramWithSecret> {
  const { settings, webhook, sourceSecret } = await settingsForCreate(input, ctx.webhookAllowCidrs);
  const id = newId();
  const secret = webhook ? newWebhookSigningSecret() : '';
  const program = await ctx.db.transaction(async (trx) => {
    await requireAccount(trx, input.accountId);
    const columns = webhook ? { ...webhook, encryptedSecret: ctx.webhookSecrets.encrypt(secret, id) } : null;
    await insertProgram(
      trx,
      id,
      input.accountId,
      settings,
      columns,
      sealedSourceSecret(ctx, id, sourceSecret),
    );
    const { program } = await reread(trx, id);
    await events.programCreated(trx, ctx.schema, program);
    if (program.webhook) await events.webhookConfigured(trx, ctx.schema, program);
    return program;
  });
  return { program, webhookSigningSecret: secret };
}

export async function getProgram(ctx: AppContext, programId: string, accountId: string): Promise<Program> {
  return (await readProgram(ctx.db, programId, accountId)).program;
}

/**
 * UpdateProgram: under the program's row lock, the masked fields are merged over the stored ones and the
 * result validated as on create; a webhook named by the mask is created or removed like with its own RPCs.
 */
export async function updateProgram(
  ctx: AppContext,
  request: { programId: string; accountId: string; input: ProgramInput; mask: readonly string[] },
): Promise<ProgramWithSecret> {
  return ctx.db.transaction(async (trx) => {
    const { program: current } = await lockProgram(trx, request.programId, request.accountId);
    const plan = await planUpdate(current, request.input, request.mask, ctx.webhookAllowCidrs);
    let secret = '';
    let webhook: WebhookColumns | null | undefined; // undefined: left as it is
    if (plan.webhook.kind === 'set') {
      secret = newWebhookSigningSecret();
      const encryptedSecret = ctx.webhookSecrets.encrypt(secret, current.id);
      webhook = { ...plan.webhook.webhook, encryptedSecret };
    } else if (plan.webhook.kind === 'clear') {
      webhook = null;
    }
    const sealed = sealedSourceSecret(ctx, current.id, plan.sourceSecret);
    await saveProgram(trx, current.id, plan.settings, webhook, sealed);
    const { program } = await reread(trx, current.id);
    await events.programUpdated(trx, ctx.schema, program);
    if (plan.webhook.kind === 'set') await events.webhookConfigured(trx, ctx.schema, program);
    if (plan.webhook.kind === 'clear') await events.webhookRemoved(trx, ctx.schema, program);
    return { program, webhookSigningSecret: secret };
  });
}

/** The column value of a secret change: sealed when set, null when cleared, undefined when kept. */
function sealedSourceSecret(
  ctx: AppContext,
  programId: string,
  change: SourceSecretChange,
): Buffer | null | undefined {
  if (change.kind === 'set') return ctx.sourceSecrets.encrypt(change.secret, programId);
  return change.kind === 'clear' ? null : undefined;
}

/** GetTheme: the default texts (one per errorId) overlaid by the program's own theme. */
export async function getTheme(ctx: AppContext, programId: string, accountId: string): Promise<Theme> {
  const { program } = await readProgram(ctx.db, programId, accountId);
  return mergeTheme(program.theme);
}

/**
 * ListPrograms (operator): program summaries newest first, optionally of one account (which must exist:
 * NOT_FOUND otherwise), one segment, one mode, or with a name containing a text.
 */
export async function listPrograms(
  ctx: AppContext,
  request: {
    accountId: string;
    segment: string;
    mode: ProgramMode | undefined;
    nameContains: string;
    pageSize: number;
    pageToken: string;
  },
): Promise<{ programs: ProgramSummary[]; nextPageToken: string }> {
  const query = programListQuery(request);
  if (query.accountId !== null) await requireAccount(ctx.db, query.accountId);
  const rows = await listProgramSummaries(ctx.db, { ...query, limit: query.limit + 1 });
  const { items, nextPageToken } = pageOf(rows, query);
  return { programs: items, nextPageToken };
}
