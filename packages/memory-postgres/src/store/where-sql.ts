import type { WhereCondition, WhereScalar } from "@claw/memory-api";
import type { SqlParams } from "./sql-params.js";

/**
 * `AND ...` conditions on the `metadata` jsonb of `claw_memories AS m` for a validated `where`
 * filter, with the same meaning as on SQLite: jsonb equality is typed (1 is not "1"); a missing
 * field (or no metadata) fails every condition except `$ne`, `$nin` and `$exists: false`; ranges
 * compare numbers with numbers and strings with strings in code-point order (`COLLATE "C"`, as
 * SQLite's). Paths and values are bound parameters.
 */
export function whereSql(conditions: readonly WhereCondition[] | undefined, params: SqlParams): string {
  if (conditions === undefined) return "";
  return conditions.map((condition) => ` AND ${conditionSql(condition, params)}`).join("");
}

function conditionSql(condition: WhereCondition, params: SqlParams): string {
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
      return condition.op === "ne" || condition.op === "nin" ? `NOT ${test}` : test;
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

/** A condition that is NULL where the field is missing counts as false. */
function held(condition: string): string {
  return `coalesce(${condition}, false)`;
}

function anyOf(field: () => string, values: readonly WhereScalar[], params: SqlParams): string {
  if (values.length === 0) return "false";
  return `${field()} = ANY(${params.add(values.map((value) => JSON.stringify(value)))}::jsonb[])`;
}
