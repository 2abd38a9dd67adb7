import type { EntryFilter } from "@claw/memory-api";
import type { SqlFragment } from "./sql-fragment.js";
import { whereSql } from "./where-sql.js";

export type { EntryFilter, SqlFragment };

/** Builds `AND ...` conditions on the memories table aliased `m`; every value is a bound parameter. */
export function filterSql(filter: EntryFilter): SqlFragment {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.namespace !== undefined && filter.namespace !== "*") {
    parts.push("m.namespace = ?");
    params.push(filter.namespace);
  }
  if (filter.sessionId !== undefined) {
    parts.push("m.session_id = ?");
    params.push(filter.sessionId);
  }
  if (filter.since !== undefined) {
    parts.push("m.updated_at >= ?");
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    parts.push("m.updated_at < ?");
    params.push(filter.until);
  }
  if (filter.categories !== undefined && filter.categories.length > 0) {
    parts.push(`m.category IN (${filter.categories.map(() => "?").join(", ")})`);
    params.push(...filter.categories);
  }
  if (!filter.includeSuperseded) parts.push("m.superseded_by IS NULL");
  if (filter.aliveAt !== undefined) {
    parts.push("(m.expires_at IS NULL OR m.expires_at > ?)");
    params.push(filter.aliveAt);
  }
  const where = whereSql(filter.where);
  return { sql: parts.map((p) => ` AND ${p}`).join("") + where.sql, params: [...params, ...where.params] };
}

/** True when the filter narrows beyond a namespace, so an index over-fetch may come back short. */
export function isSelective(filter: EntryFilter): boolean {
  return (
    filter.sessionId !== undefined ||
    filter.since !== undefined ||
    filter.until !== undefined ||
    (filter.categories !== undefined && filter.categories.length > 0) ||
    (filter.where !== undefined && filter.where.length > 0)
  );
}
