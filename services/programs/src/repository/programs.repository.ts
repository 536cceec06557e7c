import type { Knex } from '@eligo/runtime';
import type {
  DocumentReview,
  OfferType,
  OrganizationRules,
  Program,
  ProgramMode,
  ProgramSettings,
  ProgramSummary,
  VerificationLimit,
  WebhookNotification,
  WebhookSettings,
} from '../domain/program';
import type { Segment } from '@eligo/vocabulary';
import type { Theme } from '../domain/theme';
import type { InstantMatchSettings } from '../domain/instant-match';
import { containsPattern, keysetPage, type Db, type Keyset } from './db';

interface ProgramRow {
  id: string;
  account_id: string;
  name: string;
  segment: Segment;
  sub_segments: string[];
  mode: ProgramMode;
  start_date: Date | null;
  end_date: Date | null;
  offer_type: OfferType;
  reward_code: string | null;
  redirect_url: string | null;
  consolation_reward_code: string | null;
  min_age: number | null;
  max_age: number | null;
  countries: string[];
  document_review: DocumentReview;
  organization_rules: OrganizationRules;
  // Rows written before translations existed have no locales.
  theme: Omit<Theme, 'locales'> & Partial<Pick<Theme, 'locales'>>;
  webhook_callback_uri: string | null;
  webhook_secret: Buffer | null;
  webhook_created_at: Date | null;
  webhook_notifications: WebhookNotification[];
  verification_limit_quantity: number | null;
  verification_limit_days: number | null;
  subject_token_key: string | null;
  require_account_token_to_create: boolean;
  embed_origins: string[];
  instant_match: InstantMatchSettings;
  instant_source_secret: Buffer | null;
  created_at: Date;
  updated_at: Date;
  reward_codes_remaining: string | number;
}

/** A program as read, with the encrypted webhook secret that only the webhook use cases look at. */
export interface StoredProgram {
  program: Program;
  webhookSecret: Buffer | null;
}

function settingsColumns(s: ProgramSettings): Record<string, unknown> {
  return {
    name: s.name,
    segment: s.segment,
    sub_segments: s.subSegments,
    mode: s.mode,
    start_date: s.startDate,
    end_date: s.endDate,
    offer_type: s.offerType,
    reward_code: s.rewardCode,
    redirect_url: s.redirectUrl,
    consolation_reward_code: s.consolationRewardCode,
    min_age: s.minAge,
    max_age: s.maxAge,
    countries: s.countries,
    // jsonb: stringified here, or pg would send a top-level array as a Postgres array.
    document_review: JSON.stringify(s.documentReview),
    organization_rules: JSON.stringify(s.organizationRules),
    theme: JSON.stringify(s.theme),
    verification_limit_quantity: s.verificationLimit?.quantity ?? null,
    verification_limit_days: s.verificationLimit?.days ?? null,
    subject_token_key: s.subjectTokenKey,
    require_account_token_to_create: s.requireAccountTokenToCreate,
    embed_origins: s.embedOrigins,
    instant_match: JSON.stringify(s.instantMatch),
  };
}

/** The HTTP source's sealed secret: a Buffer sets it, null removes it, undefined leaves it. */
const sourceSecretColumn = (sealed: Buffer | null | undefined): Record<string, unknown> =>
  sealed === undefined ? {} : { instant_source_secret: sealed };

export interface WebhookColumns extends WebhookSettings {
  encryptedSecret: Buffer;
}

export async function insertProgram(
  db: Db,
  id: string,
  accountId: string,
  settings: ProgramSettings,
  webhook: WebhookColumns | null,
  sourceSecret?: Buffer | null,
): Promise<void> {
  await db.table('programs').insert({
    id,
    account_id: accountId,
    ...settingsColumns(settings),
    ...webhookColumns(db, webhook),
    ...sourceSecretColumn(sourceSecret),
  });
}

/** Replaces the settings (and, when given, the webhook: null removes it) and bumps updated_at. */
export async function updateProgram(
  db: Db,
  id: string,
  settings: ProgramSettings,
  webhook?: WebhookColumns | null,
  sourceSecret?: Buffer | null,
): Promise<void> {
  await db
    .table('programs')
    .where({ id })
    .update({
      ...settingsColumns(settings),
      ...(webhook === undefined ? {} : webhookColumns(db, webhook)),
      ...sourceSecretColumn(sourceSecret),
      updated_at: db.fn.now(),
    });
}

/** Sets (or with null removes) the webhook alone. */
export async function updateProgramWebhook(
  db: Db,
  id: string,
  webhook: WebhookColumns | null,
): Promise<void> {
  await db
    .table('programs')
    .where({ id })
    .update({ ...webhookColumns(db, webhook), updated_at: db.fn.now() });
}

/** Replaces the encrypted signing secret of the program's webhook, which stays otherwise as it is. */
export async function updateWebhookSecret(db: Db, id: string, encryptedSecret: Buffer): Promise<void> {
  await db
    .table('programs')
    .where({ id })
    .whereNotNull('webhook_callback_uri')
    .update({ webhook_secret: encryptedSecret, updated_at: db.fn.now() });
}

/** Sets (or with null removes) the verification limit alone. */
export async function updateProgramLimit(db: Db, id: string, limit: VerificationLimit | null): Promise<void> {
  await db
    .table('programs')
    .where({ id })
    .update({
      verification_limit_quantity: limit?.quantity ?? null,
      verification_limit_days: limit?.days ?? null,
      updated_at: db.fn.now(),
    });
}

function webhookColumns(db: Db, webhook: WebhookColumns | null): Record<string, unknown> {
  return {
    webhook_callback_uri: webhook?.callbackUri ?? null,
    webhook_secret: webhook?.encryptedSecret ?? null,
    webhook_created_at: webhook ? db.fn.now() : null,
    webhook_notifications: webhook?.notifications ?? [],
  };
}

/**
 * One program with its pool size, in one query. `lock` takes the row lock (select ... for update) that
 * serialises concurrent changes of a program: read, validate and write happen under it.
 */
export async function findProgram(
  db: Db,
  id: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<StoredProgram | undefined> {
  const query = db
    .table('programs as p')
    .where('p.id', id)
    .first('p.*', remainingColumn(db)) as Knex.QueryBuilder;
  if (lock) query.forUpdate('p');
  const row = (await query) as ProgramRow | undefined;
  return row && { program: toProgram(row), webhookSecret: row.webhook_secret };
}

/** Unclaimed pool codes for reward-pool offers (the partial index on unclaimed codes answers it). */
function remainingColumn(db: Db): Knex.Raw {
  return db.raw(
    `case when p.offer_type = 'REWARD_POOL'
       then (select count(*) from reward_codes r where r.program_id = p.id and r.claimed_by is null)
       else 0 end as reward_codes_remaining`,
  );
}

function toProgram(row: ProgramRow): Program {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    segment: row.segment,
    subSegments: row.sub_segments,
    mode: row.mode,
    startDate: row.start_date,
    endDate: row.end_date,
    offerType: row.offer_type,
    rewardCode: row.reward_code,
    redirectUrl: row.redirect_url,
    consolationRewardCode: row.consolation_reward_code,
    minAge: row.min_age,
    maxAge: row.max_age,
    countries: row.countries,
    documentReview: row.document_review,
    organizationRules: row.organization_rules,
    theme: { ...row.theme, locales: row.theme.locales ?? {} },
    webhook:
      row.webhook_callback_uri !== null && row.webhook_created_at !== null
        ? {
            callbackUri: row.webhook_callback_uri,
            notifications: row.webhook_notifications,
            createdAt: row.webhook_created_at,
          }
        : null,
    verificationLimit:
      row.verification_limit_quantity !== null && row.verification_limit_days !== null
        ? { quantity: row.verification_limit_quantity, days: row.verification_limit_days }
        : null,
    subjectTokenKey: row.subject_token_key,
    requireAccountTokenToCreate: row.require_account_token_to_create,
    embedOrigins: row.embed_origins,
    instantMatch: row.instant_match,
    instantSourceSealedSecret: row.instant_source_secret,
    rewardCodesRemaining: Number(row.reward_codes_remaining),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Programs newest first after `after`, filtered. Each filter alone has its index (account, segment, mode,
 * each with created_at desc, id desc; none: programs_created_idx); combined, the planner walks one of them and
 * checks the rest on the rows it reads.
 */
export async function listProgramSummaries(
  db: Db,
  query: {
    accountId: string | null;
    segment: Segment | null;
    mode: ProgramMode | null;
    nameContains: string | null;
    after: Keyset | null;
    limit: number;
  },
): Promise<ProgramSummary[]> {
  const q = db.table('programs').select({
    id: 'id',
    accountId: 'account_id',
    name: 'name',
    segment: 'segment',
    mode: 'mode',
    offerType: 'offer_type',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  });
  if (query.accountId !== null) void q.where('account_id', query.accountId);
  if (query.segment !== null) void q.where('segment', query.segment);
  if (query.mode !== null) void q.where('mode', query.mode);
  if (query.nameContains !== null) void q.whereILike('name', containsPattern(query.nameContains));
  return (await keysetPage(
    q,
    { createdAt: 'created_at', id: 'id' },
    query.after,
    query.limit,
  )) as ProgramSummary[];
}
