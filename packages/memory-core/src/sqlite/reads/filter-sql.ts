import type { EntryFilter } from "@claw/memory-api";
import type { MemoryRow } from "./entry-row.js";
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

/** The columns rowFilter() tests. */
export type FilteredRow = Pick<
  MemoryRow,
  "namespace" | "session_id" | "updated_at" | "category" | "superseded_by" | "expires_at"
>;

/**
 * filterSql() as a test of a row already read (rows kept in memory, row-cache.ts), or null when
 * the filter has conditions on metadata, which only SQL tests. Times are compared as text, as
 * SQLite compares them: they are ASCII RFC 3339 strings (toISOString()), where the two orders agree.
 */
export function rowFilter(filter: EntryFilter): ((row: FilteredRow) => boolean) | null {
  if (filter.where !== undefined && filter.where.length > 0) return null;
  const namespace = filter.namespace === "*" ? undefined : filter.namespace;
  const { sessionId, since, until, aliveAt } = filter;
  const categories =
    filter.categories !== undefined && filter.categories.length > 0 ? new Set(filter.categories) : undefined;
  const superseded = filter.includeSuperseded === true;
  return (row) =>
    (namespace === undefined || row.namespace === namespace) &&
    (sessionId === undefined || row.session_id === sessionId) &&
    (since === undefined || row.updated_at >= since) &&
    (until === undefined || row.updated_at < until) &&
    (categories === undefined || categories.has(row.category)) &&
    (superseded || row.superseded_by === null) &&
    (aliveAt === undefined || row.expires_at === null || row.expires_at > aliveAt);
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
