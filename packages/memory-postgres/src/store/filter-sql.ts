import type { EntryFilter } from "@claw/memory-api";

export type { EntryFilter };

/** Bound parameters for one statement: `add(value)` returns its placeholder (`$3`). */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `AND ...` conditions on claw_memories aliased `m`; every value is a bound parameter. */
export function filterSql(filter: EntryFilter, params: SqlParams): string {
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
  return parts.map((p) => ` AND ${p}`).join("");
}
