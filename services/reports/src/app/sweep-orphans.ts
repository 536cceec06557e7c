import { sweepOrphans } from '@eligo/runtime';
import { objectKeysOf } from '../repository/reports.repository';
import type { AppContext } from './context';
import { reportIdOfKey } from './generate-report';

/**
 * One pass of the orphan sweep: deletes the report files under reports/ that no report refers to, once
 * they are older than the grace period: a generator that crashed between its upload and recording it, a
 * deletion that failed after its row changed, a row removed by hand. Files being written are not listed
 * until their upload completes, and the grace covers the moment before the generator records one.
 */
export async function sweepReportOrphans(app: AppContext): Promise<boolean> {
  await sweepOrphans(app.store, {
    prefix: 'reports/',
    writtenBefore: new Date(Date.now() - app.orphanGraceMs),
    referenced: async (keys) => {
      const ids = keys.map(reportIdOfKey).filter((id): id is string => id !== undefined);
      return new Set(await objectKeysOf(app.db, app.schema, ids));
    },
  });
  return false;
}
