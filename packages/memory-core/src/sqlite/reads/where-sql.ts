import type { WhereCondition, WhereScalar } from "@claw/memory-api";
import type { SqlFragment } from "./sql-fragment.js";

/**
 * `AND ...` conditions on the metadata JSON of `memories AS m` for a validated `where` filter
 * (metadata/where-filter.ts), typed as the filter is: `json_type` tells a JSON 1 from "1" and true
 * from 1. A missing field (or no metadata) fails every condition except `$ne`, `$nin` and
 * `$exists: false`. Paths and values are bound parameters.
 */
export function whereSql(conditions: readonly WhereCondition[] | undefined): SqlFragment {
  if (conditions === undefined || conditions.length === 0) return { sql: "", params: [] };
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const condition of conditions) {
    const path = jsonPath(condition.path);
    switch (condition.op) {
      // $eq is $in of one value, $ne is $nin of one.
      case "eq":
      case "in":
      case "ne":
      case "nin": {
        const values = "values" in condition ? condition.values : [condition.value];
        const test = held(anyOf(path, values, params));
        parts.push(condition.op === "ne" || condition.op === "nin" ? `NOT ${test}` : test);
        break;
      }
      case "exists":
        params.push(path);
        parts.push(`json_type(m.metadata, ?) IS ${condition.value ? "NOT NULL" : "NULL"}`);
        break;
      default: {
        const operator = RANGE_OPERATORS[condition.op];
        params.push(path, path, condition.value);
        parts.push(
          held(
            `json_type(m.metadata, ?) ${typeTest(condition.value)} AND json_extract(m.metadata, ?) ${operator} ?`,
          ),
        );
      }
    }
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(""), params };
}

const RANGE_OPERATORS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** `$."a"."b"`: segments are letters, digits, `_` and `-` only (where-filter.ts), so quoting is plain. */
function jsonPath(path: readonly string[]): string {
  return `$${path.map((segment) => `."${segment}"`).join("")}`;
}

/** A condition that is NULL where the metadata is NULL counts as false. */
function held(condition: string): string {
  return `coalesce((${condition}), 0)`;
}

function equals(path: string, value: WhereScalar, params: unknown[]): string {
  params.push(path);
  if (value === null) return "json_type(m.metadata, ?) = 'null'";
  if (typeof value === "boolean") return `json_type(m.metadata, ?) = '${value ? "true" : "false"}'`;
  params.push(path, value);
  return `json_type(m.metadata, ?) ${typeTest(value)} AND json_extract(m.metadata, ?) = ?`;
}

function anyOf(path: string, values: readonly WhereScalar[], params: unknown[]): string {
  if (values.length === 0) return "0";
  return values.map((value) => `(${equals(path, value, params)})`).join(" OR ");
}

function typeTest(value: number | string): string {
  return typeof value === "number" ? "IN ('integer', 'real')" : "= 'text'";
}
