import type { verificationEligibilityListV1 as v1 } from '@eligo/proto';
import { invalidArgument } from '@eligo/runtime';
import type { ImportPart, ImportResult } from '../app/eligibility-list-import';
import type { EligibilityListRecord } from '../repository/eligibility-lists.repository';

/** The import stream's messages as the use case reads them; a message with no part is a malformed stream. */
export async function* importParts(
  requests: AsyncIterable<v1.ImportEligibilityListRequest>,
): AsyncGenerator<ImportPart> {
  for await (const { part } of requests) {
    if (part?.$case === 'start') yield { start: part.start };
    else if (part?.$case === 'rows')
      yield { rows: part.rows.rows.map((r) => ({ ...r, refusal: r.refusal || undefined })) };
    else throw invalidArgument('an import message without a part', { errorIds: ['invalidRequest'] });
  }
}

export function listVersionToProto(list: EligibilityListRecord): v1.EligibilityListVersion {
  return {
    programId: list.programId,
    version: list.version,
    rowCount: list.rowsStored,
    identifierCount: list.identifierCount,
    createdAt: list.createdAt,
    activatedAt: list.activatedAt ?? undefined,
    format: list.format,
  };
}

export function importResultToProto({
  list,
  counts,
  refusals,
}: ImportResult): v1.ImportEligibilityListResponse {
  return {
    list: listVersionToProto(list),
    rowsRead: counts.rowsRead,
    rowsStored: counts.rowsStored,
    rowsRefused: counts.rowsRefused,
    duplicates: counts.duplicates,
    refusals,
  };
}
