import type { AcceptanceFilter } from '../domain/eligibility';
import { joinSql, sql, type Sql } from './db';

/**
 * The domain's acceptance rule (eligibility.ts `accepts`) as a boolean SQL expression over organizations, so
 * that searches filter and flag in the database by the same rule: excluded ids lose to everything, included
 * ids win over types and countries, a null list does not restrict. Unrestricted parts are left out of the
 * text entirely, so that the planner sees only real conditions.
 */
export function acceptanceSql(filter: AcceptanceFilter): Sql {
  const fits: Sql[] = [];
  if (filter.types !== null) fits.push(sql('type = any(?::text[])', [...filter.types]));
  if (filter.countries !== null) fits.push(sql('country = any(?::text[])', [...filter.countries]));
  let expr = fits.length > 0 ? joinSql(fits, ' and ') : sql('true');
  if (filter.includeIds.length > 0)
    expr = joinSql(
      [sql('id = any(?::bigint[])', [...filter.includeIds]), sql(`(${expr.text})`, ...expr.bindings)],
      ' or ',
    );
  if (filter.excludeIds.length > 0)
    expr = joinSql(
      [sql('not (id = any(?::bigint[]))', [...filter.excludeIds]), sql(`(${expr.text})`, ...expr.bindings)],
      ' and ',
    );
  return sql(`(${expr.text})`, ...expr.bindings);
}
