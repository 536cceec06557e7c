import { invalidArgument } from '@eligo/runtime';
import { fieldSets, MAX_METADATA_COLUMNS, type FieldScope, type ReportField } from '../domain/fields';
import { MAX_REPORT_PROGRAMS } from '../domain/report-request';
import { metadataKeysOf } from '../repository/projection.repository';
import type { AppContext } from './context';
import { assertProgramsOf } from './create-report';
import { isId } from '../domain/ids';

/** The columns a report of these programs (all of the account's when none) can have, by scope. */
export async function listReportFields(
  app: AppContext,
  input: { accountId: string; programIds: readonly string[] },
): Promise<{ scope: FieldScope; fields: ReportField[] }[]> {
  const programIds = [...new Set(input.programIds)];
  const invalid = programIds.find((id) => !isId(id));
  if (invalid !== undefined || programIds.length > MAX_REPORT_PROGRAMS)
    throw invalidArgument(
      invalid !== undefined ? `Invalid program id: ${invalid.slice(0, 40)}` : 'Too many program ids',
      { errorIds: ['invalidRequest'] },
    );
  await assertProgramsOf(app, input.accountId, programIds);
  const keys = await metadataKeysOf(
    app.db,
    app.schema,
    { accountId: input.accountId, programIds },
    MAX_METADATA_COLUMNS,
  );
  return fieldSets(keys);
}
