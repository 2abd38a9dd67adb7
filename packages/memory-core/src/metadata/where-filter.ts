import type { WhereCondition, WhereScalar } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";

/** Most conditions one filter may hold (each becomes a clause of the query). */
export const MAX_WHERE_CONDITIONS = 32;
/** Most values of one `$in` / `$nin`. */
export const MAX_WHERE_VALUES = 256;
/** A field path segment: letters, digits, `_` and `-` (dots separate segments). */
export const FIELD_SEGMENT = /^[\p{L}\p{N}_-]{1,128}$/u;
export const MAX_FIELD_DEPTH = 8;

const COMPARISONS = { $gt: "gt", $gte: "gte", $lt: "lt", $lte: "lte" } as const;
const OPERATORS = new Set(["$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$exists"]);

/**
 * A `where` filter (WhereFilter) validated into the conditions backends compile into their query,
 * or undefined when absent. Everything wrong is INVALID_INPUT naming its path (`where.project.$gt`):
 * an unknown operator, an operator where a field belongs, a value of the wrong type.
 */
export function whereOf(value: unknown, field = "where"): WhereCondition[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw MemoryError.invalidInput(field, "expected an object of { field: value or { $operator: value } }");
  }
  const conditions: WhereCondition[] = [];
  for (const [name, condition] of Object.entries(value)) {
    const at = `${field}.${name}`;
    if (name.startsWith("$")) {
      throw MemoryError.invalidInput(at, "an operator must follow a field: { field: { $gt: 1 } }");
    }
    const path = pathOf(name, at);
    if (isScalar(condition)) conditions.push({ op: "eq", path, value: condition });
    else conditions.push(...operatorsOf(condition, path, at));
  }
  if (conditions.length > MAX_WHERE_CONDITIONS) {
    throw MemoryError.invalidInput(
      field,
      `holds ${conditions.length} conditions, over the limit of ${MAX_WHERE_CONDITIONS}`,
    );
  }
  return conditions;
}

function pathOf(name: string, at: string): string[] {
  const path = name.split(".");
  if (path.length > MAX_FIELD_DEPTH || !path.every((segment) => FIELD_SEGMENT.test(segment))) {
    throw MemoryError.invalidInput(
      at,
      `a field is up to ${MAX_FIELD_DEPTH} dot-separated names of letters, digits, "_" and "-"`,
    );
  }
  return path;
}

function operatorsOf(value: unknown, path: string[], at: string): WhereCondition[] {
  if (value === undefined || typeof value !== "object" || value === null || Array.isArray(value)) {
    throw MemoryError.invalidInput(at, "expected a string, number, boolean, null or { $operator: value }");
  }
  const entries = Object.entries(value);
  if (entries.length === 0) throw MemoryError.invalidInput(at, "expected at least one $operator");
  return entries.map(([operator, operand]): WhereCondition => {
    const where = `${at}.${operator}`;
    if (!OPERATORS.has(operator)) {
      throw MemoryError.invalidInput(where, `unknown operator; expected one of ${[...OPERATORS].join(", ")}`);
    }
    switch (operator) {
      case "$eq":
      case "$ne":
        if (!isScalar(operand))
          throw MemoryError.invalidInput(where, "expected a string, number, boolean or null");
        return { op: operator === "$eq" ? "eq" : "ne", path, value: operand };
      case "$in":
      case "$nin":
        return { op: operator === "$in" ? "in" : "nin", path, values: listOf(operand, where) };
      case "$exists":
        if (typeof operand !== "boolean") throw MemoryError.invalidInput(where, "expected true or false");
        return { op: "exists", path, value: operand };
      default: {
        if (!(typeof operand === "string" || (typeof operand === "number" && Number.isFinite(operand)))) {
          throw MemoryError.invalidInput(where, "expected a finite number or a string");
        }
        return { op: COMPARISONS[operator as keyof typeof COMPARISONS], path, value: operand };
      }
    }
  });
}

function listOf(value: unknown, at: string): WhereScalar[] {
  if (!Array.isArray(value)) throw MemoryError.invalidInput(at, "expected an array of values");
  if (value.length > MAX_WHERE_VALUES) {
    throw MemoryError.invalidInput(at, `holds ${value.length} values, over the limit of ${MAX_WHERE_VALUES}`);
  }
  value.forEach((item, i) => {
    if (!isScalar(item))
      throw MemoryError.invalidInput(`${at}[${i}]`, "expected a string, number, boolean or null");
  });
  return value as WhereScalar[];
}

function isScalar(value: unknown): value is WhereScalar {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}
