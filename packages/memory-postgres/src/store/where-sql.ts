import type { WhereCondition, WhereScalar } from "@claw/memory-api";
import type { SqlParams } from "./sql-params.js";

/**
 * `AND ...` conditions on the `metadata` jsonb of `claw_memories AS m` for a validated `where`
 * filter, with the same meaning as on SQLite: jsonb equality is typed (1 is not "1"); a missing
 * field (or no metadata) fails every condition except `$ne`, `$nin` and `$exists: false`; ranges
 * compare numbers with numbers and strings with strings in code-point order (`COLLATE "C"`, as
 * SQLite's). Paths and values are bound parameters. With `metadataIndex`, $eq and $in also test
 * containment, which the GIN index on metadata answers (see containment()).
 */
export function whereSql(
  conditions: readonly WhereCondition[] | undefined,
  params: SqlParams,
  metadataIndex = false,
): string {
  if (conditions === undefined) return "";
  return conditions.map((condition) => ` AND ${conditionSql(condition, params, metadataIndex)}`).join("");
}

function conditionSql(condition: WhereCondition, params: SqlParams, metadataIndex: boolean): string {
  // Bound only when used: an empty `$in` binds nothing.
  let bound: string | undefined;
  const field = () => (bound ??= `(m.metadata #> ${params.add(condition.path)}::text[])`);
  switch (condition.op) {
    // $eq is $in of one value, $ne is $nin of one.
    case "eq":
    case "in":
    case "ne":
    case "nin": {
      const values = "values" in condition ? condition.values : [condition.value];
      const test = held(anyOf(field, values, params));
      if (condition.op === "ne" || condition.op === "nin") return `NOT ${test}`;
      const contained = metadataIndex ? containment(condition.path, values, params) : null;
      return contained === null ? test : `${contained} AND ${test}`;
    }
    case "exists":
      return `${field()} IS ${condition.value ? "NOT NULL" : "NULL"}`;
    default: {
      const operator = RANGE_OPERATORS[condition.op];
      if (typeof condition.value === "number") {
        // CASE, not AND: PostgreSQL does not promise to test the type first.
        return `CASE WHEN jsonb_typeof(${field()}) = 'number' THEN ${field()} ${operator} ${params.add(
          JSON.stringify(condition.value),
        )}::jsonb ELSE false END`;
      }
      const text = `(m.metadata #>> ${params.add(condition.path)}::text[])`;
      return `CASE WHEN jsonb_typeof(${field()}) = 'string' THEN ${text} COLLATE "C" ${operator} ${params.add(
        condition.value,
      )}::text COLLATE "C" ELSE false END`;
    }
  }
}

const RANGE_OPERATORS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** Above this many values an `$in` is tested without the index (one index scan per value). */
const CONTAINMENT_MAX_VALUES = 64;

/**
 * `metadata @> {"a":{"b":value}}` for each value, OR-ed: what the GIN index on metadata
 * (jsonb_path_ops, migration 5) answers, so that a selective `$eq` or `$in` reads only the rows it
 * names. Every row the exact test keeps contains that document, so the two together mean the exact
 * test. Not for a path with a number in it (`#>` reads "0" as an array index, containment as a
 * key), an empty `$in`, or too many values: those are tested row by row as before.
 *
 * Only reads by filter (list, export) ask for it. In a keyword search PostgreSQL then ANDs the
 * full-text and metadata bitmaps, reading every entry the filter names: at 100k entries on
 * PostgreSQL 15, keyword p50 with a 10 % filter went from 9.8 to 13.6 ms, with a 2 % one from 10.3
 * to 13.0 ms, while list() with the 2 % filter went from 2.4 to 1.8 ms (50 entries) and from 64
 * to 31 ms (all 2,000).
 */
function containment(
  path: readonly string[],
  values: readonly WhereScalar[],
  params: SqlParams,
): string | null {
  if (values.length === 0 || values.length > CONTAINMENT_MAX_VALUES) return null;
  if (path.some((segment) => ARRAY_INDEX.test(segment))) return null;
  const documents = values.map((value) => {
    const document = path.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), value);
    return `m.metadata @> ${params.add(JSON.stringify(document))}::jsonb`;
  });
  return documents.length === 1 ? (documents[0] as string) : `(${documents.join(" OR ")})`;
}

const ARRAY_INDEX = /^-?\d+$/;

/** A condition that is NULL where the field is missing counts as false. */
function held(condition: string): string {
  return `coalesce(${condition}, false)`;
}

function anyOf(field: () => string, values: readonly WhereScalar[], params: SqlParams): string {
  if (values.length === 0) return "false";
  return `${field()} = ANY(${params.add(values.map((value) => JSON.stringify(value)))}::jsonb[])`;
}
