/** A projection row as a report reads it: timestamps already ISO text, so no Date is built per row. */
export interface ReportRow {
  verification_id: string;
  program_id: string | null;
  program_name: string | null;
  tracking_id: string | null;
  segment: string | null;
  sub_segment: string | null;
  test_mode: boolean | null;
  current_step: string | null;
  error_ids: string[];
  verification_method: string | null;
  organization_id: string | null;
  organization_name: string | null;
  doc_upload_count: number;
  review_outcome: string | null;
  rejection_reasons: string[];
  metadata_keys: string[];
  conversion_count: number;
  conversion_totals: Record<string, string>;
  conversion_tags: string[];
  created: string | null;
  last_updated: string | null;
  completed: string | null;
}

export interface ReverifyReportRow extends ReportRow {
  batch_id: string;
  item_verification_id: string;
  reverify_outcome: string | null;
  reverify_error_ids: string[];
  reverify_step: string | null;
  reverify_organization_id: string | null;
  processed: string | null;
}
