import type { OrganizationDraft } from '../domain/organization';
import { checkOrganizationInput, type OrganizationInput } from '../domain/organization-input';
import { invalidRequest, Problems } from '../domain/problems';
import * as events from '../events/publish';
import { upsertOrganizations } from '../repository/organizations.repository';
import type { AppContext } from './context';

export const MAX_IMPORT_ROWS = 1000;

export interface ImportRow {
  /** Position in the imported file (1-based); 0 = not given, the row's position in the call is used. */
  line: number;
  organization: OrganizationInput | undefined;
}

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  rejected: { line: number; message: string }[];
}

/**
 * ImportOrganizations: one batch upserted by external key. A bad row is reported by its line and not stored;
 * the good rows of the batch are stored with their events (OrganizationAdded / OrganizationUpdated) in one
 * transaction. When a key appears twice in a batch the later row wins (as if imported one after the other),
 * and the counts cover distinct keys.
 */
export async function importOrganizations(
  ctx: AppContext,
  rows: readonly ImportRow[],
): Promise<ImportResult> {
  if (rows.length > MAX_IMPORT_ROWS)
    throw invalidRequest(
      `rows: at most ${MAX_IMPORT_ROWS} rows per call (got ${rows.length}); split the file`,
    );
  const rejected: ImportResult['rejected'] = [];
  const byKey = new Map<string, OrganizationDraft>();
  rows.forEach((row, index) => {
    const line = row.line > 0 ? row.line : index + 1;
    if (!row.organization) {
      rejected.push({ line, message: 'organization: is required' });
      return;
    }
    const problems = new Problems();
    const draft = checkOrganizationInput(row.organization, problems);
    if (!problems.empty) rejected.push({ line, message: problems.message() });
    else {
      byKey.delete(draft.externalKey); // re-inserted last: Map order then follows the winning rows
      byKey.set(draft.externalKey, draft);
    }
  });
  const drafts = [...byKey.values()];
  const changed = await ctx.db.transaction(async (trx) => {
    const upserted = await upsertOrganizations(trx, drafts);
    for (const { organization, inserted } of upserted) {
      if (inserted) await events.organizationAdded(trx, ctx.schema, organization);
      else await events.organizationUpdated(trx, ctx.schema, organization);
    }
    return upserted;
  });
  const created = changed.filter((c) => c.inserted).length;
  return { created, updated: changed.length - created, unchanged: drafts.length - changed.length, rejected };
}
