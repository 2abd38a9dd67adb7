// An index of the scalar values in entries' metadata (schema 7), so that a selective `where` finds
// its entries without reading every row: one (path, kind, value, rid) row per scalar a filter can
// address (objects walked by key, arrays not entered, as `where` paths do). Kept in step by the
// write path; searches use it to narrow a vector or keyword search to the entries it names (the
// full `where` still applies in SQL, so the index only has to name a superset, which it does).
import type { WhereCondition, WhereScalar } from "@claw/memory-api";
import { FIELD_SEGMENT, MAX_FIELD_DEPTH } from "../../metadata/where-filter.js";
import type { SqlFragment } from "../reads/sql-fragment.js";
import type { StatementCache } from "../schema/statement-cache.js";

export const CREATE_METADATA_FIELDS = `
CREATE TABLE IF NOT EXISTS memory_fields (
  path TEXT NOT NULL,
  kind INTEGER NOT NULL,
  value NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (path, kind, value, rid)
) WITHOUT ROWID;
`;

/** How a scalar is typed in the index: `where` compares within a type only (1 is not "1"). A
 *  null is kept as "" (a primary key holds no NULL). */
const KIND = { null: 0, boolean: 1, number: 2, string: 3 } as const;

type Field = [path: string, kind: number, value: string | number];

/** The addressable scalars of a metadata object, as index rows (without the rid). */
export function fieldsOf(metadata: unknown): Field[] {
  const fields: Field[] = [];
  const walk = (value: unknown, path: string, depth: number) => {
    if (value === null) fields.push([path, KIND.null, ""]);
    else if (typeof value === "boolean") fields.push([path, KIND.boolean, value ? 1 : 0]);
    else if (typeof value === "number") fields.push([path, KIND.number, value]);
    else if (typeof value === "string") fields.push([path, KIND.string, value]);
    else if (typeof value === "object" && !Array.isArray(value) && depth < MAX_FIELD_DEPTH) {
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
        if (FIELD_SEGMENT.test(key)) walk(item, path === "" ? key : `${path}.${key}`, depth + 1);
      }
    }
  };
  if (metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)) walk(metadata, "", 0);
  return fields;
}

/** Indexes the metadata (JSON text, or null: nothing) of row `rid`. */
export function indexFields(statements: StatementCache, rid: number, metadata: string | null): void {
  if (metadata === null) return;
  const insert = statements.get(
    "INSERT OR IGNORE INTO memory_fields (path, kind, value, rid) VALUES (?, ?, ?, ?)",
  );
  for (const [path, kind, value] of fieldsOf(JSON.parse(metadata))) insert.run(path, kind, value, rid);
}

/**
 * Drops the index rows of row `rid`, whose metadata was `metadata`: found by their key, so the
 * index needs no second index by rid (which cost a bulk import with metadata another ~10 %).
 */
export function unindexFields(statements: StatementCache, rid: number, metadata: string | null): void {
  if (metadata === null) return;
  const remove = statements.get(
    "DELETE FROM memory_fields WHERE path = ? AND kind = ? AND value = ? AND rid = ?",
  );
  for (const [path, kind, value] of fieldsOf(JSON.parse(metadata))) remove.run(path, kind, value, rid);
}

/** Drops the index rows of the rows matching `where` (a condition on `memories AS m`). */
export function unindexFieldsWhere(statements: StatementCache, where: string, params: unknown[]): void {
  const rows = statements
    .get(`SELECT m.rid, m.metadata FROM memories AS m WHERE ${where} AND m.metadata IS NOT NULL`)
    .all(...params) as Array<{ rid: number; metadata: string }>;
  for (const row of rows) unindexFields(statements, row.rid, row.metadata);
}

/** Indexes every row's metadata again (schema 7 on a store that had metadata before). */
export function rebuildFieldIndex(statements: StatementCache): void {
  statements.get("DELETE FROM memory_fields").run();
  const rows = statements
    .get("SELECT rid, metadata FROM memories WHERE metadata IS NOT NULL")
    .all() as Array<{ rid: number; metadata: string }>;
  for (const row of rows) indexFields(statements, row.rid, row.metadata);
}

/** The rids of the rows one condition can hold, as SQL on the index. */
export interface FieldNarrowing {
  /** `SELECT rid FROM memory_fields WHERE …` */
  sql: string;
  params: unknown[];
  /** How many rids it names, counted up to the cap given (the cap + 1 when more). */
  count: number;
  /**
   * For equality conditions: whether the rid in `column` is named, as one primary-key seek per
   * value (`EXISTS …`). Testing a few rows this way costs less than reading the whole set.
   */
  probe?: (column: string) => SqlFragment;
}

/**
 * What was counted for one validated `where` (one per call: a recall's stages share it), so the
 * keyword, vector and substring stages of one recall count the index once, whatever cap each asks.
 */
const counted = new WeakMap<readonly WhereCondition[], { cap: number; best: FieldNarrowing | null }>();

/**
 * The condition of `where` that names the fewest entries in the index, when one names at most
 * `cap` (counting stops there): a search may then read just those entries. Conditions the index
 * cannot answer exactly or as a superset ($ne, $nin, $exists) are not used.
 */
export function narrowestField(
  statements: StatementCache,
  conditions: readonly WhereCondition[] | undefined,
  cap: number,
): FieldNarrowing | null {
  if (conditions === undefined || conditions.length === 0) return null;
  // A count made under a cap at least as high answers this one: the smallest count is exact.
  const known = counted.get(conditions);
  if (known !== undefined && (known.best !== null || known.cap >= cap))
    return known.best !== null && known.best.count <= cap ? known.best : null;
  const best = countNarrowest(statements, conditions, cap);
  counted.set(conditions, { cap, best });
  return best;
}

function countNarrowest(
  statements: StatementCache,
  conditions: readonly WhereCondition[],
  cap: number,
): FieldNarrowing | null {
  let best: FieldNarrowing | null = null;
  for (const condition of conditions) {
    const candidate = narrowing(condition);
    if (candidate === null) continue;
    const count = statements
      .get(`SELECT count(*) FROM (${candidate.sql} LIMIT ?)`)
      .pluck()
      .get(...candidate.params, cap + 1) as number;
    if (count <= cap && (best === null || count < best.count)) best = { ...candidate, count };
    if (best?.count === 0) break;
  }
  return best;
}

const RANGE = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

function narrowing(condition: WhereCondition): Omit<FieldNarrowing, "count"> | null {
  const path = condition.path.join(".");
  switch (condition.op) {
    case "eq":
    case "in": {
      const values = "values" in condition ? condition.values : [condition.value];
      if (values.length === 0) return { sql: "SELECT rid FROM memory_fields WHERE 0", params: [] };
      const params: unknown[] = [];
      const tests = values.map((value) => {
        params.push(path, ...keyOf(value));
        return "SELECT rid FROM memory_fields WHERE path = ? AND kind = ? AND value = ?";
      });
      const probe = (column: string): SqlFragment => ({
        sql: `(${values
          .map(
            () =>
              `EXISTS (SELECT 1 FROM memory_fields f WHERE f.path = ? AND f.kind = ? AND f.value = ? AND f.rid = ${column})`,
          )
          .join(" OR ")})`,
        params,
      });
      return { sql: tests.join(" UNION "), params, probe };
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const kind = typeof condition.value === "number" ? KIND.number : KIND.string;
      return {
        sql: `SELECT rid FROM memory_fields WHERE path = ? AND kind = ? AND value ${RANGE[condition.op]} ?`,
        params: [path, kind, condition.value],
      };
    }
    default:
      return null;
  }
}

function keyOf(value: WhereScalar): [number, string | number] {
  if (value === null) return [KIND.null, ""];
  if (typeof value === "boolean") return [KIND.boolean, value ? 1 : 0];
  if (typeof value === "number") return [KIND.number, value];
  return [KIND.string, value];
}
