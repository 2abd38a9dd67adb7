import type { EntryFilter } from "@claw/memory-api";
import { SqlParams } from "./sql-params.js";
import { whereSql } from "./where-sql.js";

export type { EntryFilter };

export { SqlParams };

/**
 * `AND ...` conditions on claw_memories aliased `m`; every value is a bound parameter.
 * `metadataIndex`: a read by filter, whose `where` may be answered by the metadata index
 * (where-sql.ts); searches leave it to their own index.
 */
export function filterSql(filter: EntryFilter, params: SqlParams, metadataIndex = false): string {
  const parts: string[] = [];
  if (filter.namespace !== undefined && filter.namespace !== "*") {
    parts.push(`m.namespace = ${params.add(filter.namespace)}`);
  }
  if (filter.sessionId !== undefined) parts.push(`m.session_id = ${params.add(filter.sessionId)}`);
  if (filter.since !== undefined) parts.push(`m.updated_at >= ${params.add(filter.since)}::timestamptz`);
  if (filter.until !== undefined) parts.push(`m.updated_at < ${params.add(filter.until)}::timestamptz`);
  if (filter.categories !== undefined && filter.categories.length > 0) {
    parts.push(`m.category = ANY(${params.add(filter.categories)}::text[])`);
  }
  if (!filter.includeSuperseded) parts.push("m.superseded_by IS NULL");
  if (filter.aliveAt !== undefined) {
    parts.push(`(m.expires_at IS NULL OR m.expires_at > ${params.add(filter.aliveAt)}::timestamptz)`);
  }
  return parts.map((p) => ` AND ${p}`).join("") + whereSql(filter.where, params, metadataIndex);
}
