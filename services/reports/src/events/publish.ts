import { reportsEventsV1 } from '@eligo/proto';
import { outboxWriter, type Transaction } from '@eligo/runtime';
import type { ReportRecord } from '../repository/reports.repository';

const enqueue = outboxWriter<keyof typeof reportsEventsV1>('reports');

/** ReportCompleted, in the transaction that ends the report: ids and status only. */
export const reportCompleted = (trx: Transaction, schema: string, report: ReportRecord) =>
  enqueue(trx, schema, 'ReportCompleted', reportsEventsV1.ReportCompleted, report.id, {
    reportId: report.id,
    accountId: report.accountId,
    status: report.status,
    occurredAt: new Date(),
  });
